// The map stays true: every repository path the docs name (README.md, docs/**/*.md) exists. A path
// is a run with a slash that ends in a file name with an extension (`src/server/app.ts`,
// `scripts/check-nginx.sh`); the decisions' short forms (`features/exams/bank.ts`, `lib/password.ts`,
// `catalog/service.ts`) are looked for under src/, src/server/, src/server/features/, src/web/
// and src/web/features/, then as the end of any path in the tree. Left out: addresses
// (https://, /api/...), absolute paths of the machine (/etc/...), build output (dist/) and
// patterns (`migrations/NNNN_*.sql`, `./x.mjs`). A file that is gone, named as history (the
// largest files before a split), is struck through: ~~`admin/results/service.ts`~~.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage', 'test-results', 'playwright-report']);
const BASES = ['', 'src', 'src/server', 'src/server/features', 'src/web', 'src/web/features'];
const PATH = /(?<![\w./:@-])(?:\.{1,2}\/)?[\w@-][\w.@-]*(?:\/[\w.@*-]+)+\.(?:tsx?|mjs|cjs|js|sh|md|sql|json|ya?ml|conf|html|css|svg|ttf|woff2?)(?![\w/-])/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [relative(ROOT, path)];
  });
}

const tree = files(ROOT);
const docs = ['README.md', ...tree.filter((path) => path.startsWith('docs/') && path.endsWith('.md'))];

/** The paths a document names, each with its line. */
export function namedPaths(text: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(PATH)) {
      const path = match[0];
      const before = line.slice(0, match.index);
      if (/https?:\/\/\S*$|\/\/\S*$/.test(before)) continue; // part of an address
      if (/(?:^|[\s`'"(])\/$/.test(before) || before.endsWith('/')) continue; // absolute, or the tail of /api/...
      if (path.startsWith('dist/') || path.startsWith('./') || path.startsWith('../')) continue;
      if (/\*|NNNN|<|\bx\.mjs$/.test(path)) continue; // a pattern
      if (/~~`?$/.test(before) && /^`?~~/.test(line.slice(match.index + path.length))) continue; // struck through: history
      found.push({ path, line: index + 1 });
    }
  });
  return found;
}

export function exists(path: string): boolean {
  if (BASES.some((base) => existsSync(join(ROOT, base, path)))) return true;
  return tree.some((file) => file.endsWith(`/${path}`));
}

describe('the paths the docs name', () => {
  it('finds paths in the docs (the scan is looking at the right thing)', () => {
    expect(docs).toContain('docs/architecture.md');
    expect(namedPaths('see `src/server/app.ts` and features/exams/bank.ts, not https://x.org/a/b.ts, /etc/nginx/nginx.conf or ~~`lib/gone.ts`~~').map((p) => p.path)).toEqual([
      'src/server/app.ts',
      'features/exams/bank.ts',
    ]);
    expect(exists('features/ranking/ranking.ts')).toBe(false);
    expect(exists('lib/password.ts')).toBe(true);
  });

  it.each(docs)('%s names only paths that exist', (doc) => {
    const missing = namedPaths(readFileSync(join(ROOT, doc), 'utf8'))
      .filter(({ path }) => !exists(path))
      .map(({ path, line }) => `${doc}:${line} ${path}`);
    expect(missing).toEqual([]);
  });
});
