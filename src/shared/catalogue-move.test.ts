import { describe, expect, it } from 'vitest';
import { matchKey, needsConfirmation, schoolNotice } from './catalogue-move';

describe('matchKey', () => {
  it('matches a name typed without accents, in another case or tone placement, with extra spaces', () => {
    expect(matchKey('Truong TH  Hoa Binh ')).toBe(matchKey('Trường TH Hòa Bình'));
    expect(matchKey('TRƯỜNG TH HOÀ BÌNH')).toBe(matchKey('Trường TH Hòa Bình'));
  });
});

describe('needsConfirmation', () => {
  it('is not needed for another tone placement or case of the same name', () => {
    expect(needsConfirmation('Trường TH Hoà Bình', 'Trường TH Hòa Bình')).toBe(false);
    expect(needsConfirmation('trường th hòa bình', 'Trường TH Hòa Bình')).toBe(false);
  });
  it('is needed when the name matched only without its accents', () => {
    expect(needsConfirmation('Truong TH Hoa Binh', 'Trường TH Hòa Bình')).toBe(true);
    expect(needsConfirmation('Trường TH Hóa Bình', 'Trường TH Hòa Bình')).toBe(true);
  });
});

describe('schoolNotice', () => {
  const child = { school: 'Trường TH Hòa Bình', district: 'Phường Hòa Bình', closed: false, classPending: true, schoolId: 7 };
  it('says nothing when the school is as it was', () => {
    expect(schoolNotice({ ...child, previous: { id: 7, school: 'Trường TH Hoà Bình', district: 'Phường Hoà Bình' } })).toBeNull();
    expect(schoolNotice({ ...child, previous: null })).toBeNull();
  });
  it('tells a move or a rename while the class is to confirm', () => {
    const moved = { ...child, previous: { id: 7, school: 'Trường TH Hòa Bình', district: 'Huyện Cũ' } };
    expect(schoolNotice(moved)).toContain('trước đây là Trường TH Hòa Bình (Huyện Cũ)');
    expect(schoolNotice({ ...moved, classPending: false })).toBeNull();
  });
  it('tells a merge and a closure', () => {
    expect(schoolNotice({ ...child, previous: { id: 3, school: 'Trường TH An Lạc', district: 'Huyện Cũ' } })).toContain('sáp nhập vào Trường TH Hòa Bình');
    expect(schoolNotice({ ...child, closed: true, classPending: false, previous: null })).toContain('không còn trong danh mục');
  });
});
