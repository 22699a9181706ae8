import { describe, expect, it } from 'vitest';
import { formatAverage, formatCountdown, formatDate, formatDateTime, formatDuration, formatClock, formatInstant, formatMoney, formatNumber, formatProbability, formatScientific } from './format';

describe('Vietnamese formats', () => {
  it('formats dates in Asia/Ho_Chi_Minh as dd/mm/yyyy', () => {
    // 20:30 UTC on 1 April is already 2 April in Vietnam (UTC+7).
    expect(formatDate('2025-04-01T20:30:00Z')).toBe('02/04/2025');
    expect(formatDateTime('2025-04-02T01:00:00Z')).toBe('08:00 02/04/2025');
    expect(formatInstant('2025-04-01T20:30:02.945Z')).toBe('03:30:02 02/04/2025');
    expect(formatClock('2025-04-01T20:30:02.945Z')).toBe('03:30:02');
  });

  it('formats numbers with a dot for thousands and a comma for decimals', () => {
    expect(formatNumber(1500)).toBe('1.500');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1_234_567)).toBe('1.234.567');
    expect(formatNumber(84, 1)).toBe('84,0');
    expect(formatNumber(84.56, 1)).toBe('84,6');
    expect(formatNumber(-1234.5, 1)).toBe('-1.234,5');
    expect(formatNumber(-0.01, 1)).toBe('0,0');
    expect(formatAverage(84)).toBe('84,0');
    expect(formatAverage(null)).toBe('—');
  });

  it('formats money with dots and đ', () => {
    expect(formatMoney(10_000_000)).toBe('10.000.000 đ');
    expect(formatMoney(70_000)).toBe('70.000 đ');
    expect(formatMoney(0)).toBe('0 đ');
  });

  it('formats durations and the countdown', () => {
    expect(formatDuration(725)).toBe('12 phút 05 giây');
    expect(formatDuration(0)).toBe('0 phút 00 giây');
    expect(formatCountdown(1200)).toBe('00:20:00');
    expect(formatCountdown(3725)).toBe('01:02:05');
    expect(formatCountdown(-3)).toBe('00:00:00');
  });
});

describe('formatScientific and formatProbability', () => {
  it('writes the mantissa with a decimal comma and the exponent in superscript', () => {
    expect(formatScientific(1.23e-13)).toBe('1,2 × 10⁻¹³');
    expect(formatScientific(3.2e-6)).toBe('3,2 × 10⁻⁶');
    expect(formatScientific(9.96e-5)).toBe('1,0 × 10⁻⁴');
    expect(formatScientific(6.02e23, 2)).toBe('6,02 × 10²³');
    expect(formatScientific(-4.5e-10)).toBe('-4,5 × 10⁻¹⁰');
    expect(formatScientific(0)).toBe('0');
  });

  it('gives a probability decimals from 0,001 up and a power of ten below', () => {
    expect(formatProbability(0.05)).toBe('0,0500');
    expect(formatProbability(0.001)).toBe('0,0010');
    expect(formatProbability(1.2e-13)).toBe('1,2 × 10⁻¹³');
    expect(formatProbability(1e-12)).not.toMatch(/[\^ˆe]/);
  });
});
