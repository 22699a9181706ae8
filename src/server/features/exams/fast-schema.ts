// A cheaper front for the Zod schemas of the autosave route (docs/decisions/005-exam-save-path.md).
// The Zod schema stays the only statement of the rules: its JSON Schema (z.toJSONSchema) is compiled
// here into a plain predicate that recognises bodies already in their final form (numbers as
// numbers, nothing to coerce or default). Such a body is what Zod would output, field for field, so
// it is used as it is; anything else (a bad body, "12" for 12, ...) goes to Zod itself, which
// coerces it or answers with its own messages. The predicate only ever says "certainly valid".
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INT4_MAX } from '../../../shared/schemas/common';

type Check = (value: unknown) => boolean;
type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// The keywords understood; any other keyword in a schema is refused when the route is built, so a
// change of the Zod schema can never make this predicate accept more than Zod does.
const KNOWN = new Set([
  '$schema', 'type', 'properties', 'required', 'additionalProperties', 'items', 'maxItems', 'minItems',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'const',
]);

/** Compiles the subset of JSON Schema that z.toJSONSchema gives for plain objects, arrays and scalars. */
export function compileCheck(schema: JsonSchema): Check {
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key)) throw new Error(`fast-schema: unsupported JSON Schema keyword "${key}"`);
  }
  const checks: Check[] = [];
  if (schema.anyOf !== undefined) {
    const options = (schema.anyOf as JsonSchema[]).map(compileCheck);
    checks.push((value) => options.some((option) => option(value)));
  }
  if (schema.const !== undefined) {
    const expected = schema.const;
    if (typeof expected === 'object') throw new Error('fast-schema: only scalar consts');
    checks.push((value) => value === expected);
  }
  switch (schema.type) {
    case undefined:
      if (schema.anyOf === undefined) throw new Error('fast-schema: a schema without a type');
      break;
    case 'null':
      checks.push((value) => value === null);
      break;
    case 'boolean':
      checks.push((value) => typeof value === 'boolean');
      break;
    case 'integer':
    case 'number': {
      const integer = schema.type === 'integer';
      const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<string, number | undefined>;
      checks.push(
        (value) =>
          typeof value === 'number' &&
          Number.isFinite(value) &&
          (!integer || Number.isSafeInteger(value)) &&
          (minimum === undefined || value >= minimum) &&
          (maximum === undefined || value <= maximum) &&
          (exclusiveMinimum === undefined || value > exclusiveMinimum) &&
          (exclusiveMaximum === undefined || value < exclusiveMaximum),
      );
      break;
    }
    case 'string': {
      const { minLength, maxLength } = schema as Record<string, number | undefined>;
      const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern as string, 'u');
      checks.push(
        (value) =>
          typeof value === 'string' &&
          (minLength === undefined || value.length >= minLength) &&
          (maxLength === undefined || value.length <= maxLength) &&
          (pattern === undefined || pattern.test(value)),
      );
      // Lengths in UTF-16 units (Zod) and code points (JSON Schema) agree only on BMP text: be strict.
      if (minLength !== undefined || maxLength !== undefined) checks.push((value) => !/[\uD800-\uDFFF]/.test(value as string));
      break;
    }
    case 'array': {
      const item = schema.items === undefined ? undefined : compileCheck(schema.items as JsonSchema);
      const { minItems, maxItems } = schema as Record<string, number | undefined>;
      checks.push((value) => {
        if (!Array.isArray(value)) return false;
        if (minItems !== undefined && value.length < minItems) return false;
        if (maxItems !== undefined && value.length > maxItems) return false;
        if (item) for (const element of value) if (!item(element)) return false;
        return true;
      });
      break;
    }
    case 'object': {
      const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(
        ([name, property]) => [name, compileCheck(property)] as const,
      );
      const required = new Set((schema.required ?? []) as string[]);
      const closed = schema.additionalProperties === false;
      if (schema.additionalProperties !== undefined && !closed) throw new Error('fast-schema: additionalProperties must be false or absent');
      const known = new Set(properties.map(([name]) => name));
      checks.push((value) => {
        if (!isObject(value)) return false;
        for (const [name, check] of properties) {
          const field = value[name];
          if (field === undefined) {
            // Absent optional fields stay absent in Zod's output; an explicit undefined cannot come from JSON.
            if (required.has(name) || name in value) return false;
          } else if (!check(field)) return false;
        }
        if (closed) for (const name in value) if (!known.has(name)) return false;
        return true;
      });
      break;
    }
    default:
      throw new Error(`fast-schema: unsupported type ${String(schema.type)}`);
  }
  if (checks.length === 1) return checks[0]!;
  return (value) => checks.every((check) => check(value));
}

/**
 * The predicate "Zod would accept this value and give it back unchanged". The value must fit both
 * the schema's input and output side: a transformed field ("12" -> 12) fits only the input side,
 * and a body with unknown keys (which Zod strips) fits only the input side too.
 */
export function compileAsIsCheck(zodSchema: z.ZodType): Check {
  const input = compileCheck(z.toJSONSchema(zodSchema, { io: 'input', unrepresentable: 'throw' }) as JsonSchema);
  const output = compileCheck(z.toJSONSchema(zodSchema, { io: 'output', unrepresentable: 'throw' }) as JsonSchema);
  return (value) => input(value) && output(value);
}

/**
 * A validator compiler for one route: bodies the compiled predicate accepts pass as they are, the
 * others are judged by Zod (fastify-type-provider-zod's compiler: same value, same errors).
 */
// The compilers take any route schema type: Fastify types them by the route's whole schema object.
export function fastValidatorCompiler(zodSchema: z.ZodType): FastifySchemaCompiler<any> {
  const accepts = compileAsIsCheck(zodSchema);
  return (routeSchema) => {
    const slow = validatorCompiler(routeSchema) as (data: unknown) => ReturnType<ReturnType<FastifySchemaCompiler<unknown>>>;
    return (data) => (accepts(data) ? { value: data } : slow(data));
  };
}

/**
 * A route response's serializer: a reply that already has exactly the fields and types of the
 * schema (no key to strip, nothing to encode) is JSON.stringify-ed as it is, the others go through
 * Zod as on every other route.
 */
export function fastSerializer(zodSchema: z.ZodObject): (data: unknown) => string {
  const json = z.toJSONSchema(zodSchema, { io: 'output', unrepresentable: 'throw' }) as JsonSchema;
  if (json.additionalProperties !== false) throw new Error('fast-schema: a response schema must be a strict object');
  const exact = compileCheck(json);
  const slow = serializerCompiler({ schema: zodSchema, method: 'GET', url: '/', httpStatus: '200' });
  return (data) => (exact(data) ? JSON.stringify(data) : slow(data));
}

/** fastSerializer as Fastify's serializer compiler of the route whose 200 response is `zodSchema`. */
export function fastSerializerCompiler(zodSchema: z.ZodObject): FastifySerializerCompiler<any> {
  const serialize = fastSerializer(zodSchema);
  return () => serialize;
}

/** A positive int4 in canonical decimal (no sign, no leading zero): what idSchema turns into that number. */
const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;

/**
 * A reader of query strings of ids alone (idSchema, shared/schemas/common.ts), as the exam screens'
 * re-sync sends it (`?exam_id=123`): a query with exactly the schema's names, each once and in
 * canonical decimal, is given as Zod would give it (the same names as numbers) without Zod's union,
 * transform and pipe; for any other query (a leading zero, a second value, an unknown name, ...)
 * it gives undefined, and Zod itself judges it, with its messages. The schema is checked here to be
 * such a schema (its names, and Zod's answer for the edge values), so a change of the Zod schema
 * cannot make this accept what Zod refuses.
 */
export function idQueryReader(zodSchema: z.ZodObject) {
  const names = Object.keys(zodSchema.shape);
  for (const name of names) {
    const output = (value: string) => {
      const parsed = zodSchema.safeParse(Object.fromEntries(names.map((other) => [other, other === name ? value : '1'])));
      return parsed.success ? (parsed.data as Record<string, unknown>)[name] : 'refused';
    };
    const expected: [string, unknown][] = [['1', 1], ['90', 90], ['2147483647', INT4_MAX], ['2147483648', 'refused'], ['0', 'refused']];
    if (expected.some(([value, answer]) => output(value) !== answer)) throw new Error(`fast-schema: "${name}" is not an id of idSchema`);
  }
  const known = new Set(names);
  const idOf = (value: unknown): number | undefined => {
    if (typeof value !== 'string' || !CANONICAL_ID.test(value)) return undefined;
    const id = Number(value);
    return id > INT4_MAX ? undefined : id;
  };
  return {
    /** From the query object Fastify parsed (each value a string, or an array for a repeated name). */
    fromParsed(data: unknown): Record<string, number> | undefined {
      if (typeof data !== 'object' || data === null) return undefined;
      const ids: Record<string, number> = {};
      let count = 0;
      for (const name in data) {
        const id = known.has(name) ? idOf((data as Record<string, unknown>)[name]) : undefined;
        if (id === undefined) return undefined;
        ids[name] = id;
        count += 1;
      }
      return count === names.length ? ids : undefined;
    },
    /** From the raw query string (after the "?"): only plain `name=digits` pairs, each name once. */
    fromSearch(search: string): Record<string, number> | undefined {
      const ids: Record<string, number> = {};
      let count = 0;
      for (const pair of search.split('&')) {
        const equals = pair.indexOf('=');
        const name = pair.slice(0, equals);
        const id = equals > 0 && known.has(name) && !(name in ids) ? idOf(pair.slice(equals + 1)) : undefined;
        if (id === undefined) return undefined;
        ids[name] = id;
        count += 1;
      }
      return count === names.length ? ids : undefined;
    },
  };
}

/** idQueryReader as Fastify's validator compiler for one route's query string; anything else goes to Zod. */
export function fastIdQueryCompiler(zodSchema: z.ZodObject): FastifySchemaCompiler<any> {
  const reader = idQueryReader(zodSchema);
  return (routeSchema) => {
    const slow = validatorCompiler(routeSchema) as (data: unknown) => ReturnType<ReturnType<FastifySchemaCompiler<unknown>>>;
    return (data) => {
      const ids = reader.fromParsed(data);
      return ids ? { value: ids } : slow(data);
    };
  };
}
