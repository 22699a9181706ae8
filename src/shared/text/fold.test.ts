import { describe, expect, it } from 'vitest';
import { foldText } from './fold';

describe('foldText', () => {
  it('matches either tone placement, any case, with or without accents', () => {
    expect(foldText('Phường Hoà Bình')).toBe('phuong hoa binh');
    expect(foldText('PHƯỜNG HÒA BÌNH')).toBe('phuong hoa binh');
    expect(foldText('Hoà')).toBe(foldText('Hòa'));
    expect(foldText('Thuỷ')).toBe(foldText('thủy'));
    expect(foldText('Đặng Văn Đức')).toBe('dang van duc');
  });

  it('reads decomposed (NFD) text as composed', () => {
    expect(foldText('Trường Tiểu học'.normalize('NFD'))).toBe('truong tieu hoc');
  });

  it('leaves digits, punctuation and spaces as they are', () => {
    expect(foldText('Trường số 2 - Lê Lợi')).toBe('truong so 2 - le loi');
  });
});
