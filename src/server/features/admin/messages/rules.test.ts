import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors';
import { checkOneSegment, fillPlaceholders, inQuietHours, nextDayMorning, nextSendingTime, vietnamDay, withoutMarks } from './rules';

describe('the quiet hours and the day, in Asia/Ho_Chi_Minh', () => {
  it('keeps 21:00 to 07:00 quiet', () => {
    expect(inQuietHours(new Date('2026-12-04T13:59:59Z'))).toBe(false); // 20:59:59
    expect(inQuietHours(new Date('2026-12-04T14:00:00Z'))).toBe(true); // 21:00
    expect(inQuietHours(new Date('2026-12-04T23:59:59Z'))).toBe(true); // 06:59:59 on 05/12
    expect(inQuietHours(new Date('2026-12-05T00:00:00Z'))).toBe(false); // 07:00
  });

  it('moves a send in the quiet hours to the 07:00 that ends them', () => {
    expect(nextSendingTime(new Date('2026-12-04T15:30:00Z')).toISOString()).toBe('2026-12-05T00:00:00.000Z'); // 22:30 -> 07:00 next day
    expect(nextSendingTime(new Date('2026-12-04T18:00:00Z')).toISOString()).toBe('2026-12-05T00:00:00.000Z'); // 01:00 -> 07:00 same day
    expect(nextSendingTime(new Date('2026-12-04T03:00:00Z')).toISOString()).toBe('2026-12-04T03:00:00.000Z');
  });

  it('counts caps and reminders by the Vietnamese day', () => {
    expect(vietnamDay(new Date('2026-12-04T17:00:00Z'))).toBe('2026-12-05'); // 00:00 on 05/12
    expect(vietnamDay(new Date('2026-12-04T16:59:59Z'))).toBe('2026-12-04');
    expect(nextDayMorning(new Date('2026-12-04T03:00:00Z')).toISOString()).toBe('2026-12-05T00:00:00.000Z');
  });
});

describe('the text', () => {
  it('fills the known and the given placeholders and names the missing ones', () => {
    expect(fillPlaceholders('{a} {b}', { a: '1' }, { b: '2' })).toBe('1 2');
    expect(() => fillPlaceholders('{a} {b} {c}', { a: '1' }, { b: '' })).toThrow('Thiếu giá trị cho tham số: {b}, {c}.');
  });

  it('refuses a text past one segment, saying how many it takes', () => {
    expect(checkOneSegment('a'.repeat(160)).segments).toBe(1);
    try {
      checkOneSegment('ộ'.repeat(140));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('message_too_long');
      expect((error as AppError).message).toMatch(/^Tin nhắn dài 140 ký tự, cần 3 tin SMS/);
    }
  });

  it('writes the contest name unaccented', () => {
    expect(withoutMarks('Cuộc thi Đại sứ Văn hoá đọc')).toBe('Cuoc thi Dai su Van hoa doc');
  });
});
