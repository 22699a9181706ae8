import { describe, expect, it } from 'vitest';
import { moneyMessages } from './messages/admin';
import { moneyInputSchema, parseMoney } from './money';

const amount = (text: string) => {
  const reading = parseMoney(text);
  return reading.ok ? reading.amount : reading.message;
};

describe('parseMoney', () => {
  it('reads Vietnamese thousands separators and the unit', () => {
    for (const typed of ['300.000', '300,000', '300 000', '300\u00a0000', '300000', ' 300.000 đ ', '300.000đ', '300.000 đồng', '300.000 VNĐ', '300,000 vnd', '300.000 ₫', '300.000 Đ']) {
      expect(amount(typed), typed).toBe(300_000);
    }
    expect(amount('1.000.000 đ')).toBe(1_000_000);
    expect(amount('1,000,000')).toBe(1_000_000);
    expect(amount('10 000 000')).toBe(10_000_000);
    expect(amount('1.500')).toBe(1_500);
    expect(amount('999')).toBe(999);
    expect(amount('0')).toBe(0);
    // Decomposed "đồng" (as some keyboards send it) is the same word.
    expect(amount('70.000 đồng'.normalize('NFD'))).toBe(70_000);
  });

  it('refuses what could be read two ways, in Vietnamese', () => {
    for (const typed of ['300.5', '3,5', '1.000,50', '1,000.000', '300.0000', '30.00', '1.000 000', '.300', '300.']) {
      expect(amount(typed), typed).toBe(moneyMessages.ambiguous(typed));
    }
  });

  it('refuses empty, negative, words and numbers too long to hold', () => {
    expect(amount('  ')).toBe(moneyMessages.required);
    expect(amount('đ')).toBe(moneyMessages.required);
    expect(amount('-300.000')).toBe(moneyMessages.negative);
    expect(amount('ba trăm nghìn')).toBe(moneyMessages.notANumber);
    expect(amount('300k')).toBe(moneyMessages.notANumber);
    expect(amount('1'.repeat(16))).toBe(moneyMessages.tooLarge);
  });

  it('is the schema of a money field: numbers as they are, text read, problems as issues', () => {
    expect(moneyInputSchema.parse(300_000)).toBe(300_000);
    expect(moneyInputSchema.parse('300.000')).toBe(300_000);
    const fraction = moneyInputSchema.safeParse(300.5);
    expect(fraction.success || fraction.error.issues[0]!.message).toBe(moneyMessages.notWhole);
    const typed = moneyInputSchema.safeParse('3,5');
    expect(typed.success || typed.error.issues[0]!.message).toBe(moneyMessages.ambiguous('3,5'));
  });
});
