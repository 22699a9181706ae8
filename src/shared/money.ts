// Amounts of money as a Vietnamese office worker types them: "300.000", "1.000.000 đ", "300,000",
// "300 000", "300000 đồng". Money is whole đồng, so a dot, a comma or a space between groups of
// three digits can only separate thousands; anything else with a dot or a comma ("300.5", "3,5",
// "1.000,50") could be read two ways and is refused rather than guessed (the bug this module
// replaces: an <input type="number"> read "300.000" as 300). The one reader of the back office's
// money fields: the form shows its answer while typing, the server's schema reads the body with it.
import { z } from 'zod';
import { moneyMessages } from './messages/admin';

export type MoneyReading = { ok: true; amount: number } | { ok: false; message: string };

// "đ", "đồng", "vnđ", "vnd", "₫" after the number, in any case, with or without a space.
const UNIT = /\s*(?:vn[dđ]|đồng|đ|₫)\.?$/iu;
// Groups of three after a first group of one to three digits, one separator kind throughout.
const GROUPED = /^\d{1,3}(?:([., ])\d{3})(?:\1\d{3})*$/u;
/** Past 15 digits a double no longer holds every whole number. */
const MAX_DIGITS = 15;

/** Reads a typed amount in đồng: the whole number, or why it cannot be read (in Vietnamese). */
export function parseMoney(text: string): MoneyReading {
  const value = text
    .normalize('NFC')
    .replace(/[\s\u00a0\u202f]+/gu, ' ')
    .trim()
    .replace(UNIT, '')
    .trim();
  if (!value) return { ok: false, message: moneyMessages.required };
  if (/^[-−]/u.test(value)) return { ok: false, message: moneyMessages.negative };
  let digits: string;
  if (/^\d+$/u.test(value)) digits = value;
  else if (GROUPED.test(value)) digits = value.replace(/[., ]/gu, '');
  else if (/^[\d., ]+$/u.test(value)) return { ok: false, message: moneyMessages.ambiguous(text.trim()) };
  else return { ok: false, message: moneyMessages.notANumber };
  if (digits.replace(/^0+/u, '').length > MAX_DIGITS) return { ok: false, message: moneyMessages.tooLarge };
  return { ok: true, amount: Number(digits) };
}

/**
 * A money field of a request or a form: a whole number of đồng (what scripts send) or the text
 * typed (read by `parseMoney`; 400 with its message when it cannot be read). The output is a number.
 */
export const moneyInputSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return value;
    ctx.addIssue({ code: 'custom', message: moneyMessages.notWhole });
    return z.NEVER;
  }
  const reading = parseMoney(value);
  if (reading.ok) return reading.amount;
  ctx.addIssue({ code: 'custom', message: reading.message });
  return z.NEVER;
});
