import { describe, expect, it } from 'vitest';
import { smsLength } from './sms-segments';

describe('smsLength', () => {
  it('counts text without diacritics as GSM-7: 160 in one segment, 153 per part', () => {
    expect(smsLength('a'.repeat(160))).toEqual({ encoding: 'gsm7', length: 160, segments: 1, perSegment: 160 });
    expect(smsLength('a'.repeat(161))).toEqual({ encoding: 'gsm7', length: 161, segments: 2, perSegment: 153 });
    expect(smsLength('a'.repeat(307)).segments).toBe(3);
  });

  it('counts an extension character twice', () => {
    expect(smsLength('[x]').length).toBe(5);
  });

  it('counts Vietnamese with diacritics as UCS-2: 70 in one segment, 67 per part', () => {
    expect(smsLength('Kết quả cuộc thi đã được công bố')).toMatchObject({ encoding: 'ucs2', segments: 1, perSegment: 70 });
    expect(smsLength('ộ'.repeat(70)).segments).toBe(1);
    expect(smsLength('ộ'.repeat(71))).toEqual({ encoding: 'ucs2', length: 71, segments: 2, perSegment: 67 });
    expect(smsLength('ộ'.repeat(135)).segments).toBe(3);
  });
});
