// No import cycle in src/, type-only imports included. Lint's import-x/no-cycle passes over
// `import type` (harmless at run time), but a type cycle still ties the files together: the one
// the code had went through app.ts's `Services` type. Test files are left out: they may import
// anything they exercise.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => /\.tsx?$/.test(path) && existsSync(path));
}

/** Strongly connected components of more than one file (Tarjan), each as paths relative to src/. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(relative(SRC, member));
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the import graph of src/', () => {
  const files = sourceFiles(SRC);
  const graph = new Map(
    files.map((file) => {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(SPECIFIER)].map((match) => resolveImport(file, match[1]!)).filter((path) => path !== undefined);
      return [file, targets];
    }),
  );

  it('reads the imports it should (a relative import that resolves to nothing is a bug of this test)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(join(SRC, 'server/app.ts'))).toContain(join(SRC, 'server/services.ts'));
  });

  it('has no cycle, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });
});
