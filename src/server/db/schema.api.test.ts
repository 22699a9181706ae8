// schema/ is typed by hand: this holds it to the migrations. A fresh database is migrated and its
// tables, columns and nullability are compared with the interfaces of schema/*.ts, read with the
// TypeScript compiler (a column is nullable in TypeScript when the type it selects includes null).
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

type Columns = Record<string, { nullable: boolean }>;

/** table -> column -> nullable, as schema/ declares them (the `Database` interface's tables). */
function declaredTables(): Record<string, Columns> {
  const folder = new URL('./schema/', import.meta.url);
  const sources = readdirSync(folder)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ts.createSourceFile(name, readFileSync(new URL(name, folder), 'utf8'), ts.ScriptTarget.Latest, true));
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const source of sources) {
    source.forEachChild((node) => {
      if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node);
      if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
    });
  }
  /** An interface's own members and those of the interfaces it extends (the exam papers' shared columns). */
  const membersOf = (declaration: ts.InterfaceDeclaration): ts.TypeElement[] => [
    ...(declaration.heritageClauses ?? []).flatMap((clause) => clause.types.flatMap((base) => membersOf(interfaces.get(base.expression.getText())!))),
    ...declaration.members,
  ];

  /** Whether the type a column selects as can be null; `env` binds an alias's type parameters. */
  const nullable = (type: ts.TypeNode, env: Map<string, ts.TypeNode> = new Map()): boolean => {
    if (ts.isLiteralTypeNode(type)) return type.literal.kind === ts.SyntaxKind.NullKeyword;
    if (ts.isUnionTypeNode(type)) return type.types.some((member) => nullable(member, env));
    if (ts.isParenthesizedTypeNode(type)) return nullable(type.type, env);
    if (!ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName)) return false;
    const name = type.typeName.text;
    const args = type.typeArguments ?? [];
    if (env.has(name)) return nullable(env.get(name)!);
    // Generated<T> and ColumnType<Select, Insert, Update> select as their first argument.
    if (name === 'Generated' || name === 'ColumnType') return nullable(args[0]!, env);
    const alias = aliases.get(name);
    if (!alias) return false; // an interface, a union of strings, Record<...>: never null by itself
    const bound = new Map(env);
    alias.typeParameters?.forEach((parameter, index) => bound.set(parameter.name.text, args[index]!));
    return nullable(alias.type, bound);
  };

  const database = interfaces.get('Database');
  if (!database) throw new Error('schema/ has no Database interface');
  const tables: Record<string, Columns> = {};
  for (const member of database.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
    const table = member.name.getText();
    const declaration = interfaces.get(member.type.typeName.getText());
    if (!declaration) throw new Error(`schema/: ${table} names no interface of its files`);
    const columns: Columns = {};
    for (const column of membersOf(declaration)) {
      if (!ts.isPropertySignature(column) || !column.type) continue;
      columns[column.name.getText()] = { nullable: nullable(column.type) };
    }
    tables[table] = columns;
  }
  return tables;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: false });
});
afterAll(() => server?.close());

/** table -> column -> nullable, as the migrated database has them (schema_migrations left out: migrate.ts's own). */
async function migratedTables(): Promise<Record<string, Columns>> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }>`
    SELECT c.table_name, c.column_name, c.is_nullable
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
    ORDER BY c.table_name, c.ordinal_position`.execute(server.db);
  const tables: Record<string, Columns> = {};
  for (const row of rows) (tables[row.table_name] ??= {})[row.column_name] = { nullable: row.is_nullable === 'YES' };
  return tables;
}

/** The views schema/ declares beside the tables (their columns read as nullable in information_schema). */
const VIEWS = ['season_schools'];

describe('db/schema/ against the migrations', () => {
  it('declares each view with the columns the migrations give it', async () => {
    const declared = declaredTables();
    for (const view of VIEWS) {
      const { rows } = await sql<{ column_name: string }>`
        SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${view} ORDER BY ordinal_position`.execute(server.db);
      expect(rows.map((row) => row.column_name).sort()).toEqual(Object.keys(declared[view] ?? {}).sort());
    }
  });

  it('declares every table the migrations create, and no other', async () => {
    const declared = Object.keys(declaredTables()).filter((table) => !VIEWS.includes(table)).sort();
    const migrated = Object.keys(await migratedTables()).sort();
    expect(declared).toEqual(migrated);
  });

  it('declares every column of each table, and no other, nullable exactly where the database allows null', async () => {
    const declared = declaredTables();
    const migrated = await migratedTables();
    // Every table at once, so that one run names every difference (a missing table: the test above).
    const both = Object.keys(migrated).filter((table) => declared[table]);
    expect(Object.fromEntries(both.map((table) => [table, declared[table]]))).toEqual(Object.fromEntries(both.map((table) => [table, migrated[table]])));
  });
});
