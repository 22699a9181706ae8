import { describe, expect, it } from 'vitest';
import { canonicalToneMarks, compareVietnamese, foldText, nameKey } from './vietnamese';

describe('canonicalToneMarks', () => {
  const pairs: [old: string, current: string][] = [
    ['hoà', 'hòa'],
    ['hoá', 'hóa'],
    ['hoả', 'hỏa'],
    ['hoã', 'hõa'],
    ['hoạ', 'họa'],
    ['khoẻ', 'khỏe'],
    ['xoè', 'xòe'],
    ['loé', 'lóe'],
    ['thuỳ', 'thùy'],
    ['thuý', 'thúy'],
    ['thuỷ', 'thủy'],
    ['luỹ', 'lũy'],
    ['thuỵ', 'thụy'],
  ];

  it.each(pairs)('%s and %s become the new placement', (old, current) => {
    expect(canonicalToneMarks(old)).toBe(current);
    expect(canonicalToneMarks(current)).toBe(current);
  });

  it('keeps capitals where they were', () => {
    expect(canonicalToneMarks('Thành phố An Hoà')).toBe('Thành phố An Hòa');
    expect(canonicalToneMarks('AN HOÀ')).toBe('AN HÒA');
    expect(canonicalToneMarks('THUỶ')).toBe('THỦY');
    expect(canonicalToneMarks('HOà')).toBe('HÒa');
  });

  it('leaves syllables with one placement alone', () => {
    for (const word of ['hoàng', 'toán', 'khuyến', 'quý', 'Quỳnh', 'QUÝ', 'thuyền', 'của', 'hòa', 'Nguyễn']) {
      expect(canonicalToneMarks(word)).toBe(word);
    }
  });

  it('reads decomposed input (NFD) the same way', () => {
    expect(canonicalToneMarks('hoà'.normalize('NFD'))).toBe('hòa');
    expect(canonicalToneMarks('Trường Tiểu học Hoà Bình'.normalize('NFD'))).toBe('Trường Tiểu học Hòa Bình');
  });
});

describe('nameKey', () => {
  it('is the same for both placements, any case and spacing', () => {
    expect(nameKey('Thành phố An Hoà')).toBe(nameKey(' thành  phố an hòa '));
    expect(nameKey('Trường TH Thuỷ Sơn')).toBe(nameKey('TRƯỜNG TH THỦY SƠN'));
  });

  it('still tells different names apart', () => {
    expect(nameKey('An Hòa')).not.toBe(nameKey('An Hóa'));
    expect(nameKey('Đông')).not.toBe(nameKey('Dông'));
  });
});

describe('compareVietnamese', () => {
  it('sorts by the Vietnamese alphabet, numbers by value', () => {
    const names = ['Ông', 'Đức', 'Bình', 'Ánh', 'Dung', 'An', 'Ân', 'Oanh', 'Ơn', 'Lớp 10', 'Lớp 2'];
    expect([...names].sort(compareVietnamese)).toEqual(['An', 'Ánh', 'Ân', 'Bình', 'Dung', 'Đức', 'Lớp 2', 'Lớp 10', 'Oanh', 'Ông', 'Ơn']);
  });

  it('sorts classes in natural order: a class before its sub-classes, numbers by value, Vietnamese letters in their place', () => {
    const classes = ['4A6', '3A10', '3B', '3A1', '3A', '3A2', '5Đ', '5E', '5D', '4/1', '10A'];
    expect([...classes].sort(compareVietnamese)).toEqual(['3A', '3A1', '3A2', '3A10', '3B', '4/1', '4A6', '5D', '5Đ', '5E', '10A']);
  });
});

describe('foldText', () => {
  it('drops marks and case: a search without accents finds either tone placement', () => {
    expect(foldText('Phường Hoà Bình')).toBe('phuong hoa binh');
    expect(foldText('Phường Hòa Bình')).toBe('phuong hoa binh');
    expect(foldText('XÃ ĐỨC THỊNH')).toBe('xa duc thinh');
    expect(foldText('Thuỷ'.normalize('NFD'))).toBe(foldText('Thủy'));
  });

  it('keeps what is not a Vietnamese mark (digits, punctuation)', () => {
    expect(foldText('Quận 1 - Trường số 2')).toBe('quan 1 - truong so 2');
  });
});
