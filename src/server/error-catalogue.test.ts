// The error catalogue (shared/error-codes.ts) is the one table of code -> status -> message: this
// reads the server's source and checks every place that raises or answers an error against it.
// - every code raised (appError, new AppError, the shorthands, a local helper taking an ErrorCode)
//   or answered by the error handler is in the catalogue;
// - a shorthand whose name says a status (conflict: 409...) raises only codes of that status, and
//   no throw passes a status of its own;
// - a raised message is never a literal: the Vietnamese lives in shared/messages;
// - a code with one fixed message is raised with that message;
// - every code in the catalogue is raised somewhere, or answered by the error handler.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, statusOf, type ErrorCode } from '../shared/error-codes';

const SERVER = join(import.meta.dirname);
const HANDLER = join(SERVER, 'core', 'error-answers.ts');

/** Constructors: where their code and message are, and the status their name says (if any). */
const constructors: Record<string, { code: number | ErrorCode; message: number; status?: number }> = {
  appError: { code: 0, message: 1 },
  AppError: { code: 0, message: 1 },
  badRequest: { code: 2, message: 0, status: 400 },
  conflict: { code: 1, message: 0, status: 409 },
  unprocessable: { code: 1, message: 0, status: 422 },
  unauthorized: { code: 'unauthorized', message: 0, status: 401 },
  forbidden: { code: 'forbidden', message: 0, status: 403 },
  notFound: { code: 'not_found', message: 0, status: 404 },
  tooManyRequests: { code: 'too_many_requests', message: 0, status: 429 },
};

interface Raise {
  at: string;
  code: string;
  via: string;
  message?: ts.Expression;
  impliedStatus?: number;
  extraStatus?: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const isLiteral = (node: ts.Node | undefined): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral =>
  !!node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node));
const isTextLiteral = (node: ts.Node | undefined) => !!node && (isLiteral(node) || ts.isTemplateExpression(node));

function scan() {
  const raises: Raise[] = [];
  const answered = new Set<string>();
  for (const file of sourceFiles(SERVER)) {
    if (file === join(SERVER, 'lib', 'errors.ts')) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) => `${relative(SERVER, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    // Local helpers that take a code (`phoneError(message, code)`): their callers name the code.
    const helpers = new Map<string, number>();
    const findHelpers = (node: ts.Node) => {
      const fn = ts.isVariableDeclaration(node) && node.initializer && ts.isArrowFunction(node.initializer) ? node.initializer : ts.isFunctionDeclaration(node) ? node : undefined;
      const name = ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) ? node.name.text : ts.isFunctionDeclaration(node) ? node.name?.text : undefined;
      if (fn && name && !(name in constructors)) {
        const index = fn.parameters.findIndex((p) => p.type?.getText(source) === 'ErrorCode');
        if (index >= 0) helpers.set(name, index);
      }
      ts.forEachChild(node, findHelpers);
    };
    findHelpers(source);
    const visit = (node: ts.Node) => {
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)) {
        const name = node.expression.text;
        const args = node.arguments ?? ts.factory.createNodeArray();
        const known = constructors[name];
        if (known && (name !== 'AppError' || ts.isNewExpression(node))) {
          const codeArg = typeof known.code === 'number' ? args[known.code] : undefined;
          const code = typeof known.code === 'string' ? known.code : isLiteral(codeArg) ? codeArg.text : codeArg === undefined && name === 'badRequest' ? 'bad_request' : undefined;
          if (code !== undefined || !codeArg || !ts.isIdentifier(codeArg)) {
            raises.push({
              at: where(node),
              code: code ?? `<${codeArg?.getText(source)}>`,
              via: name,
              message: args[known.message],
              impliedStatus: known.status,
              extraStatus: args.some((a) => ts.isNumericLiteral(a) && /^\d{3}$/.test(a.text)),
            });
          }
        }
        const helperIndex = helpers.get(name);
        if (helperIndex !== undefined && isLiteral(args[helperIndex])) {
          raises.push({ at: where(node), code: (args[helperIndex] as ts.StringLiteral).text, via: name, message: args[0] });
        }
      }
      // The error handler answers codes of its own (validation, Fastify's errors, the HTTP parser's).
      if (file === HANDLER && isLiteral(node) && node.text in errorCatalogue) answered.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { raises, answered };
}

const { raises, answered } = scan();
const catalogue = errorCatalogue as Record<string, { status: number; message?: string }>;

describe('the error catalogue', () => {
  it('finds the raises (the scan is looking at the right thing)', () => {
    expect(raises.length).toBeGreaterThan(200);
    expect(answered).toContain('invalid_input');
  });

  it('declares every code the server raises, and each raise takes its status from it', () => {
    const undeclared = raises.filter((raise) => !(raise.code in catalogue)).map((raise) => `${raise.at} ${raise.via}(${raise.code})`);
    expect(undeclared).toEqual([]);
    const wrongStatus = raises
      .filter((raise) => raise.impliedStatus !== undefined && raise.code in catalogue && statusOf(raise.code as ErrorCode) !== raise.impliedStatus)
      .map((raise) => `${raise.at} ${raise.via} says ${raise.impliedStatus}, ${raise.code} is ${catalogue[raise.code]!.status}`);
    expect(wrongStatus).toEqual([]);
    expect(raises.filter((raise) => raise.extraStatus).map((raise) => raise.at)).toEqual([]);
  });

  it('raises no message written in place: they are in shared/messages', () => {
    const inline = raises.filter((raise) => isTextLiteral(raise.message)).map((raise) => `${raise.at} ${raise.message!.getText()}`);
    expect(inline).toEqual([]);
  });

  it('raises a code of one fixed message with that message', () => {
    const wrong = raises
      .filter((raise) => catalogue[raise.code]?.message && raise.message && raise.message.getText() !== `messages.${catalogue[raise.code]!.message}`)
      .map((raise) => `${raise.at} ${raise.code}: ${raise.message!.getText()}`);
    expect(wrong).toEqual([]);
  });

  it('has no code that nothing raises or answers', () => {
    const raised = new Set(raises.map((raise) => raise.code));
    const unused = Object.keys(catalogue).filter((code) => !raised.has(code) && !answered.has(code));
    expect(unused).toEqual([]);
  });

  it('gives every code an HTTP error status', () => {
    for (const [code, { status }] of Object.entries(catalogue)) expect([code, status >= 400 && status <= 599]).toEqual([code, true]);
  });
});
