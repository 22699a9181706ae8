// The benchmarks' latency tally (bench-exam.ts, bench-imports.ts): latencies in ms, errors with a few samples.
import type { Reply, Tally } from '../bench-exam-load';

export class Stats {
  readonly latencies: number[] = [];
  errors = 0;
  readonly samples: string[] = [];
  startedAt = performance.now();
  endedAt = 0;
  constructor(readonly name: string) {}

  async time(fn: () => Promise<Reply>, ok: (reply: Reply) => boolean = (reply) => reply.status === 200): Promise<Reply | undefined> {
    const start = performance.now();
    try {
      const reply = await fn();
      this.latencies.push(performance.now() - start);
      if (!ok(reply)) this.fail(`${reply.status} ${JSON.stringify(reply.json).slice(0, 160)}`);
      return reply;
    } catch (error) {
      this.latencies.push(performance.now() - start);
      this.fail(String(error));
      return undefined;
    }
  }

  fail(sample: string) {
    this.errors += 1;
    if (this.samples.length < 3) this.samples.push(sample);
  }

  stop() {
    this.endedAt = performance.now();
    return this;
  }

  get seconds() {
    return ((this.endedAt || performance.now()) - this.startedAt) / 1000;
  }

  get rate() {
    return this.latencies.length / this.seconds;
  }

  /** A tally of the load generator (bench-exam-load.ts) over `seconds`. */
  static of(name: string, tally: Tally, seconds: number, latencies = tally.latencies) {
    const stats = new Stats(name);
    // One by one, not push(...): a held phase has more latencies than a call may take arguments.
    for (const latency of latencies) stats.latencies.push(latency);
    stats.errors = tally.errors;
    for (const sample of tally.samples) stats.samples.push(sample);
    stats.startedAt = 0;
    stats.endedAt = seconds * 1000;
    return stats;
  }

  get max() {
    return this.latencies.reduce((a, b) => Math.max(a, b), 0);
  }

  /** One line: count, p50, p99, max and errors. */
  line() {
    return `n ${this.latencies.length}, p50 ${fmt(this.percentile(50))}, p99 ${fmt(this.percentile(99))}, max ${fmt(this.max)} ms, ${this.errors} errors`;
  }

  percentile(p: number) {
    if (this.latencies.length === 0) return 0;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  }
}

export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
