import { describe, expect, it } from 'vitest';
import { foldText, foldedContains } from './fold';

describe('foldText', () => {
  it('drops the marks and the case, so either tone placement and NFD text match', () => {
    expect(foldText('Nguyễn Thị Ngọc Ánh')).toBe('nguyen thi ngoc anh');
    expect(foldText('ĐẶNG VĂN ĐỨC')).toBe('dang van duc');
    expect(foldText('Hoà')).toBe(foldText('Hòa'));
    expect(foldText('Thuỷ')).toBe(foldText('Thủy'));
    expect(foldText('Trường'.normalize('NFD'))).toBe('truong');
  });

  it('escapes LIKE wildcards', () => {
    expect(foldedContains('50%_Á\\')).toBe('%50\\%\\_a\\\\%');
  });
});
