import { describe, expect, it } from 'vitest';
import { maskPhone, maskPhonesIn, retentionEndsAt } from './privacy';

describe('phones in logs', () => {
  it('keep 3 digits at each end', () => {
    expect(maskPhone('0981234321')).toBe('098****321');
    expect(maskPhone('02812345678')).toBe('028*****678');
  });

  it('are masked wherever they appear in a text', () => {
    expect(maskPhonesIn('Key (phone)=(0981234321) already exists, +84981234321')).toBe('Key (phone)=(098****321) already exists, 849*****321');
    expect(maskPhonesIn('code 123456, id 42')).toBe('code 123456, id 42');
    expect(maskPhonesIn('gọi số0981234321.')).toBe('gọi số098****321.');
  });

  it('leave digits that belong to an id or a longer number', () => {
    const requestIds = ['203aaa8d-be1f-4776-b927-3c4080123535b', '203aaa8d-be1f-4776-b927-098123432153'];
    for (const id of requestIds) expect(maskPhonesIn(`request ${id} refused`)).toBe(`request ${id} refused`);
    expect(maskPhonesIn('at 1795698171072 ms')).toBe('at 1795698171072 ms');
  });
});

describe('retention', () => {
  it('ends the given months after the results date', () => {
    expect(retentionEndsAt('2026-06-01T03:00:00Z', 12).toISOString()).toBe('2027-06-01T03:00:00.000Z');
  });
});
