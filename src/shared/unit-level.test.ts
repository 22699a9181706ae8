import { describe, expect, it } from 'vitest';
import { messages, accountMessages } from './messages';
import { mentionsUnit, relabelUnit, unitLevelLabels, unitLevels } from './unit-level';

describe('unitLevelLabels', () => {
  it('says the specification’s texts exactly for districts, the default', () => {
    const district = unitLevelLabels('district');
    expect(unitLevelLabels(undefined)).toEqual(district);
    expect(unitLevelLabels(null)).toEqual(district);
    expect(district).toMatchObject({ short: 'Huyện', long: 'Quận/Huyện', placeholder: 'Chọn huyện', required: 'Huyện là bắt buộc.' });
    // The same sentences as the message catalogues the spec's screens use.
    expect(district.required).toBe(messages.districtRequired);
    expect(district.unknown).toBe(accountMessages.districtUnknown);
    expect(district.schoolNotIn).toBe(accountMessages.schoolNotInDistrict);
  });

  it('says communes and wards for the map since 1 July 2025', () => {
    expect(unitLevelLabels('commune')).toMatchObject({
      short: 'Xã/Phường',
      long: 'Xã/Phường',
      lower: 'xã/phường',
      placeholder: 'Chọn xã/phường',
      pickFirst: 'Chọn xã/phường trước',
      required: 'Xã/Phường là bắt buộc.',
      unknown: 'Xã/Phường không tồn tại.',
      schoolNotIn: 'Trường học không thuộc xã/phường đã chọn.',
      byUnit: 'Theo xã, phường',
    });
  });

  it('has every text for every level, none left empty', () => {
    for (const level of unitLevels) for (const [key, text] of Object.entries(unitLevelLabels(level))) expect(text, `${level}.${key}`).not.toBe('');
  });
});

describe('relabelUnit', () => {
  it('leaves every text alone for districts', () => {
    expect(relabelUnit('Vui lòng chọn quận/huyện.', 'district')).toBe('Vui lòng chọn quận/huyện.');
    expect(relabelUnit('Huyện là bắt buộc.', undefined)).toBe('Huyện là bắt buộc.');
  });

  it('replaces the specification’s whole sentences and the joined words for communes', () => {
    expect(relabelUnit('Huyện là bắt buộc.', 'commune')).toBe('Xã/Phường là bắt buộc.');
    expect(relabelUnit('Trường học không thuộc huyện đã chọn.', 'commune')).toBe('Trường học không thuộc xã/phường đã chọn.');
    expect(relabelUnit('Quận/Huyện', 'commune')).toBe('Xã/Phường');
    expect(relabelUnit('Quận/huyện chưa có sẽ được thêm.', 'commune')).toBe('Xã/phường chưa có sẽ được thêm.');
    expect(relabelUnit('Đã có quận/huyện "An Hoà".', 'commune')).toBe('Đã có xã/phường "An Hoà".');
    expect(relabelUnit('Theo quận, huyện', 'commune')).toBe('Theo xã, phường');
  });

  it('never touches a name: "Quận 1", "Huyện Đông Anh"', () => {
    expect(relabelUnit('Quận 1 / Trường A', 'commune')).toBe('Quận 1 / Trường A');
    expect(relabelUnit('không có quận/huyện "Huyện Đông Anh" trong danh mục', 'commune')).toBe('không có xã/phường "Huyện Đông Anh" trong danh mục');
  });

  it('mentionsUnit tells the texts it would change', () => {
    expect(mentionsUnit('Huyện là bắt buộc.')).toBe(true);
    expect(mentionsUnit('Vui lòng chọn quận/huyện.')).toBe(true);
    expect(mentionsUnit('Trường học là bắt buộc.')).toBe(false);
    expect(mentionsUnit('Huyện Đông Anh')).toBe(false);
  });
});
