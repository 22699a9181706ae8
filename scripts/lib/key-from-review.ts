// The "key from a review" test (issue 40.3), measured by bench:integrity and not built into the
// screening: with the correct answers shown right after the submit, a pupil B who sits an exam
// after a contact A has finished one can copy the key of the questions A's review showed. The test
// asks whether B is right more often on those questions than on the rest of B's own paper.
//
// Exact under "no copying": A's papers are drawn uniformly from the bank, independently of B, so
// given how many of B's questions A's reviews showed (k), which of B's questions they are is a
// uniform k-subset of B's paper; B's answers do not depend on it. With c of B's n answers right, the
// count right among the shown ones is then hypergeometric (n, c, k), whatever B's ability or the
// questions' difficulties. One p-value per exam of B (each with its own shown set), combined over
// B's exams by Fisher's method (valid for independent p-values; conservative for discrete ones).

/** ln C(n, k) for 0 <= k <= n. */
function lnChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i += 1) sum += Math.log((n - k + i) / i);
  return sum;
}

/** P(X >= x) for X ~ hypergeometric: n items of which `right` are marked, `drawn` drawn without replacement. */
export function hypergeometricUpperTail(n: number, right: number, drawn: number, x: number): number {
  const low = Math.max(0, drawn - (n - right));
  const high = Math.min(drawn, right);
  if (x <= low) return 1;
  if (x > high) return 0;
  const total = lnChoose(n, drawn);
  let p = 0;
  for (let j = x; j <= high; j += 1) p += Math.exp(lnChoose(right, j) + lnChoose(n - right, drawn - j) - total);
  return Math.min(1, p);
}

/** Fisher's combination of independent p-values: P(chi-square with 2m degrees of freedom >= -2 sum ln p). */
export function fisherCombined(ps: readonly number[]): number {
  if (ps.length === 0) return 1;
  if (ps.some((p) => p <= 0)) return 0;
  const half = -ps.reduce((sum, p) => sum + Math.log(p), 0); // t / 2
  let term = 1;
  let sum = 1;
  for (let i = 1; i < ps.length; i += 1) {
    term *= half / i;
    sum += term;
  }
  return Math.min(1, Math.exp(-half) * sum);
}

export interface ReviewedExam {
  /** Seconds since the epoch. */
  start: number;
  submitted: number | null;
  /** Question id -> the answer given (absent: blank). */
  answers: Record<string, number>;
  /** Question id -> the correct answer: the exam's paper. */
  key: Record<string, number>;
}

/**
 * The test in the direction "B used A's reviews": for each exam of B, the questions shown by A's
 * exams submitted before it started (`reviews` 'all'), or by the last of them only ('latest': a
 * sharper contrast when a pupil copies the one review at hand; a choice on times alone, so the test
 * stays exact); null when no exam of B had one of its questions shown.
 */
export function keyFromReviewP(copier: readonly ReviewedExam[], source: readonly ReviewedExam[], reviews: 'all' | 'latest' = 'all'): number | null {
  const ps: number[] = [];
  for (const exam of copier) {
    const before = source.filter((seen) => seen.submitted !== null && seen.submitted <= exam.start);
    const used = reviews === 'all' ? before : before.sort((x, y) => y.submitted! - x.submitted!).slice(0, 1);
    const shown = new Set<string>();
    for (const seen of used) for (const question of Object.keys(seen.key)) shown.add(question);
    const paper = Object.keys(exam.key);
    const isRight = (question: string) => exam.answers[question] === exam.key[question];
    const drawn = paper.filter((question) => shown.has(question));
    if (drawn.length === 0) continue;
    const right = paper.filter(isRight).length;
    ps.push(hypergeometricUpperTail(paper.length, right, drawn.length, drawn.filter(isRight).length));
  }
  return ps.length === 0 ? null : fisherCombined(ps);
}
