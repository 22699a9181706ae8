// The one Zod error map (issue 35): every issue a schema raises without a message of its own is
// answered in Vietnamese, naming its field, instead of Zod's English default ("Invalid input:
// expected string, received undefined", "Unrecognized key: ..."). A schema's own message still
// wins (Zod's precedence: the schema's, the parse call's, then this map). Installed once per
// runtime with installVietnameseValidation() (the server's app.ts; the web may call it too).
import { z } from 'zod';
import { validationMessages as m } from '../messages';

/** A field as the answers name it: its path in the body, the query or the path, "a.0.b". */
export const fieldName = (path: readonly PropertyKey[] | undefined) => (path?.length ? path.map(String).join('.') : m.wholeInput);

const typeName = (expected: string) => m.types[expected] ?? m.types.other!;
const list = (values: readonly unknown[]) => values.map((value) => (typeof value === 'string' ? `"${value}"` : String(value))).join(', ');

export const vietnameseValidationError: z.core.$ZodErrorMap = (issue) => {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? m.required(field) : m.wrongType(field, typeName(issue.expected));
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') return m.tooShort(field, min);
      if (issue.origin === 'array' || issue.origin === 'set') return m.tooFewItems(field, min);
      return issue.inclusive === false ? m.above(field, min) : m.atLeast(field, min);
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return m.tooLong(field, max);
      if (issue.origin === 'array' || issue.origin === 'set') return m.tooManyItems(field, max);
      return issue.inclusive === false ? m.below(field, max) : m.atMost(field, max);
    }
    case 'invalid_format':
      return m.badFormat(field);
    case 'invalid_value':
      return m.oneOf(field, list(issue.values));
    case 'not_multiple_of':
      return m.multipleOf(field, String(issue.divisor));
    case 'unrecognized_keys':
      return m.unknownField(list(issue.keys.map((key) => (field === m.wholeInput ? key : `${field}.${key}`))));
    default:
      return m.invalid(field);
  }
};

/** Makes vietnameseValidationError the map of every schema of this runtime (Zod's global config). */
export function installVietnameseValidation() {
  z.config({ customError: vietnameseValidationError });
}
