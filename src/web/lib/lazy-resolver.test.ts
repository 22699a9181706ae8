import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazyZodResolver } from './lazy-resolver';

const schema = z.object({ phone: z.string().min(1, 'Số điện thoại là bắt buộc.') });
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazyZodResolver', () => {
  it('checks by the schema once fetched, fetching it once', async () => {
    let loads = 0;
    const { resolver, warm } = lazyZodResolver(async () => {
      loads += 1;
      return schema;
    });
    warm();
    expect(await resolver({ phone: '' }, undefined, options)).toMatchObject({ values: {}, errors: { phone: { message: 'Số điện thoại là bắt buộc.' } } });
    expect(await resolver({ phone: '0912345678' }, undefined, options)).toEqual({ values: { phone: '0912345678' }, errors: {} });
    expect(loads).toBe(1);
  });

  it('lets the values go to the server (which checks them) when the schema cannot be fetched, and tries again next time', async () => {
    let fail = true;
    const { resolver } = lazyZodResolver(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module');
      return schema;
    });
    expect(await resolver({ phone: '' }, undefined, options)).toEqual({ values: { phone: '' }, errors: {} });
    fail = false;
    expect((await resolver({ phone: '' }, undefined, options)).errors).toHaveProperty('phone');
  });
});
