// Vietnamese formats: dates dd/mm/yyyy and times hh:mm in Asia/Ho_Chi_Minh, numbers 1.500 and 84,5,
// money 10.000.000 đ,
// durations "12 phút 05 giây". Used by the server (API fields, certificates) and the browser.
import { TIME_ZONE } from './rules';

const dateParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function parts(value: Date | string) {
  const map: Record<string, string> = {};
  for (const part of dateParts.formatToParts(new Date(value))) map[part.type] = part.value;
  return map as Record<'day' | 'month' | 'year' | 'hour' | 'minute', string>;
}

/** The year of a moment in Vietnam (a contest's year is the year its exam opens). */
export function yearOf(value: Date | string): number {
  return Number(parts(value).year);
}

/** 02/04/2025 */
export function formatDate(value: Date | string): string {
  const p = parts(value);
  return `${p.day}/${p.month}/${p.year}`;
}

/** 08:00 */
export function formatTime(value: Date | string): string {
  const p = parts(value);
  return `${p.hour}:${p.minute}`;
}

const secondParts = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** 08:00:02: to the second (when an answer was saved). */
export function formatClock(value: Date | string): string {
  const map: Record<string, string> = {};
  for (const part of secondParts.formatToParts(new Date(value))) map[part.type] = part.value;
  return `${map.hour}:${map.minute}:${map.second}`;
}

/** 08:00:02 02/04/2025: to the second, the precision submissions are ranked at (decision 003). */
export function formatInstant(value: Date | string): string {
  return `${formatClock(value)} ${formatDate(value)}`;
}

/** 08:00 02/04/2025 */
export function formatDateTime(value: Date | string): string {
  return `${formatTime(value)} ${formatDate(value)}`;
}

/**
 * The one number format of the site, Vietnamese style: 1500 -> "1.500", (84, 1) -> "84,0",
 * (-1234.56, 1) -> "-1.234,6". `fractionDigits` decimals, always shown.
 */
export function formatNumber(value: number, fractionDigits = 0): string {
  const fixed = Math.abs(value).toFixed(fractionDigits);
  const [whole, fraction] = fixed.split('.') as [string, string | undefined];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${grouped}${fraction ? `,${fraction}` : ''}`;
}

/** An average score, one decimal: 84 -> "84,0"; none (nobody finished) -> "—". */
export function formatAverage(value: number | null): string {
  return value === null ? '—' : formatNumber(value, 1);
}

/** 10.000.000 đ */
export function formatMoney(amount: number): string {
  return `${formatNumber(Math.round(amount))} đ`;
}

const pad2 = (n: number) => n.toString().padStart(2, '0');

/** 725 -> "12 phút 05 giây" */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  return `${Math.floor(seconds / 60)} phút ${pad2(seconds % 60)} giây`;
}

/** 725 -> "00:12:05" (the exam countdown) */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor((seconds % 3600) / 60))}:${pad2(seconds % 60)}`;
}

const SUPERSCRIPT: Record<string, string> = { '-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹' };

/** (1.23e-13) -> "1,2 × 10⁻¹³": a number too small or too large for decimals, the exponent in superscript. */
export function formatScientific(value: number, fractionDigits = 1): string {
  if (value === 0) return '0';
  const [mantissa, exponent] = value.toExponential(fractionDigits).split('e') as [string, string];
  const power = String(Number(exponent)).replace(/./g, (char) => SUPERSCRIPT[char]!);
  return `${formatNumber(Number(mantissa), fractionDigits)} × 10${power}`;
}

/** A probability: 0,0500 from 0,001 up, below that "1,2 × 10⁻¹³" (the integrity screening's p-values). */
export function formatProbability(p: number): string {
  return p >= 0.001 ? formatNumber(p, 4) : formatScientific(p);
}
