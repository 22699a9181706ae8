// A form's check by its shared Zod schema, the schema (and Zod with it) fetched when first needed
// instead of with the page. The public forms (login, register, forgotten password) are drawn before
// their JavaScript comes (docs/decisions/034); evaluating Zod and building the schemas was the
// largest task of a phone's start on them (decision 035). `warm` asks for the schema early, on the
// form's first focus, so that a submit rarely waits for it.
import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

export interface LazyResolver<Input extends FieldValues, Output> {
  resolver: Resolver<Input, unknown, Output>;
  /** Starts fetching the schema (a failure is retried by the next check). */
  warm: () => void;
}

export function lazyZodResolver<Input extends FieldValues, Output>(load: () => Promise<ZodType<Output, Input>>): LazyResolver<Input, Output> {
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  const get = () =>
    (loading ??= Promise.all([import('./zod-resolver'), load()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as Resolver<Input, unknown, Output>,
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) => {
    let check: Resolver<Input, unknown, Output>;
    try {
      check = await get();
    } catch {
      // No network for the schema's file: the values go to the server as typed, which checks them
      // by the same schema and answers each field's message (shown under the field).
      return { values: values as unknown as Output, errors: {} };
    }
    return check(values, context, options);
  };
  return { resolver, warm: () => void get().catch(() => undefined) };
}
