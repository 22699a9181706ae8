import { describe, expect, it } from 'vitest';
import { examKeyAction, timeNoticeCrossed, timeNoticeText } from './exam-comfort';

const press = (key: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({ key, altKey: false, ctrlKey: false, metaKey: false, ...mods });
const on = (tagName: string, type?: string) => ({ tagName, type });
const question = { answers: 4, onLastItem: false };

describe('the time notices', () => {
  it('come once at 5 and at 1 minute left, never every second', () => {
    expect(timeNoticeCrossed(300_250, 300_000)).toBe(5);
    expect(timeNoticeCrossed(300_000, 299_750)).toBeUndefined();
    expect(timeNoticeCrossed(60_100, 59_850)).toBe(1);
    expect(timeNoticeCrossed(59_850, 59_600)).toBeUndefined();
    expect(timeNoticeCrossed(600_000, 599_750)).toBeUndefined();
  });

  it('on a screen opened late, only the nearest one, and nothing once the time is up', () => {
    expect(timeNoticeCrossed(Number.POSITIVE_INFINITY, 40_000)).toBe(1);
    expect(timeNoticeCrossed(Number.POSITIVE_INFINITY, 200_000)).toBe(5);
    expect(timeNoticeCrossed(Number.POSITIVE_INFINITY, 900_000)).toBeUndefined();
    expect(timeNoticeCrossed(1_000, 0)).toBeUndefined();
  });

  it('at 1 minute left, say to submit only when everything is answered, else how many are left', () => {
    expect(timeNoticeText(1, 3)).toBe('Còn dưới 1 phút nữa là hết giờ. Em còn 3 câu chưa trả lời.');
    expect(timeNoticeText(1, 0)).toBe('Còn dưới 1 phút nữa là hết giờ. Em đã trả lời hết, hãy bấm Nộp bài nhé.');
    expect(timeNoticeText(5, 3)).toBe('Còn dưới 5 phút nữa là hết giờ. Em cứ bình tĩnh làm tiếp nhé.');
  });
});

describe('the exam keys', () => {
  it('choose with 1-4 or A-D, move with the arrows or J/K, submit with Enter on the last item', () => {
    expect(examKeyAction(press('3'), on('body'), question)).toEqual({ kind: 'choose', index: 2 });
    expect(examKeyAction(press('b'), on('input', 'radio'), question)).toEqual({ kind: 'choose', index: 1 });
    expect(examKeyAction(press('ArrowRight'), on('input', 'radio'), question)).toEqual({ kind: 'move', by: 1 });
    expect(examKeyAction(press('k'), on('h2'), question)).toEqual({ kind: 'move', by: -1 });
    expect(examKeyAction(press('Enter'), on('h2'), { answers: 0, onLastItem: true })).toEqual({ kind: 'submit' });
  });

  it('do nothing while typing, with a modifier, on a button, or past the answers there are', () => {
    expect(examKeyAction(press('3'), on('input', 'text'), question)).toBeUndefined();
    expect(examKeyAction(press('a', { ctrlKey: true }), on('body'), question)).toBeUndefined();
    expect(examKeyAction(press('Enter'), on('button'), { answers: 0, onLastItem: true })).toBeUndefined();
    expect(examKeyAction(press('Enter'), on('body'), question)).toBeUndefined();
    expect(examKeyAction(press('4'), on('body'), { answers: 3, onLastItem: false })).toBeUndefined();
    expect(examKeyAction(press('e'), on('body'), question)).toBeUndefined();
  });
});
