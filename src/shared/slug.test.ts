import { describe, expect, it } from 'vitest';
import { MAX_SLUG_LENGTH, slugify, uniqueSlug } from './slug';

describe('slugify', () => {
  it('drops the diacritics of a Vietnamese title, đ included', () => {
    expect(slugify('Đại sứ Văn hoá đọc 2025')).toBe('dai-su-van-hoa-doc-2025');
    expect(slugify('ĐỌC SÁCH CÙNG CON: bí quyết!')).toBe('doc-sach-cung-con-bi-quyet');
    expect(slugify('Ngày hội đọc sách – Trường Lê Lợi')).toBe('ngay-hoi-doc-sach-truong-le-loi');
    expect(slugify('Tuần thi trực tuyến: những điều cần biết')).toBe('tuan-thi-truc-tuyen-nhung-dieu-can-biet');
    expect(slugify('ươ ữ ặ ỗ Ữ')).toBe('uo-u-a-o-u');
  });

  it('reads decomposed input (NFD) as the same title', () => {
    expect(slugify('Đọc sách'.normalize('NFD'))).toBe('doc-sach');
  });

  it('collapses spaces and symbols into single dashes and trims them', () => {
    expect(slugify('  --Tin   mới!!  ')).toBe('tin-moi');
    expect(slugify('a / b & c')).toBe('a-b-c');
  });

  it('falls back when nothing is left, and stays short', () => {
    expect(slugify('!!!')).toBe('bai-viet');
    expect(slugify('中文')).toBe('bai-viet');
    const long = slugify('Thông báo '.repeat(30));
    expect(long.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(long.endsWith('-')).toBe(false);
  });
});

describe('uniqueSlug', () => {
  it('appends -2, -3 ... to a taken slug', () => {
    expect(uniqueSlug('tin-moi', [])).toBe('tin-moi');
    expect(uniqueSlug('tin-moi', ['tin-moi'])).toBe('tin-moi-2');
    expect(uniqueSlug('tin-moi', ['tin-moi', 'tin-moi-2', 'tin-moi-3'])).toBe('tin-moi-4');
  });
});
