import { describe, expect, it } from 'vitest';
import { isTotalRow } from './total-row';

describe('isTotalRow', () => {
  it('is a row labelled "Tổng cộng", "Tổng" or "Cộng" with only numbers or nothing beside it', () => {
    expect(isTotalRow(['Tổng cộng', '', '', '12.450'])).toBe(true);
    expect(isTotalRow(['TỔNG CỘNG:', '', '', ''])).toBe(true);
    expect(isTotalRow(['Tổng', '34', '1 200'])).toBe(true);
    expect(isTotalRow(['cộng', '', '5,5'])).toBe(true);
    // The label is the first filled cell, wherever the file put its columns.
    expect(isTotalRow(['', 'Tổng cộng', '', '980'])).toBe(true);
    // Decomposed Unicode (a Mac's file) reads the same.
    expect(isTotalRow(['Tổng cộng'.normalize('NFD'), '10'])).toBe(true);
  });

  it('is not a record that merely mentions a total, nor one with text beside the label', () => {
    expect(isTotalRow(['Tổng cộng', 'Trường Tiểu học Kim Đồng', '', '1430'])).toBe(false);
    expect(isTotalRow(['Thành phố An Hoà', 'Trường Tiểu học Kim Đồng', '', '1430'])).toBe(false);
    expect(isTotalRow(['Tổng số học sinh', '', '', '1430'])).toBe(false);
    expect(isTotalRow(['', '', ''])).toBe(false);
  });
});
