import { describe, expect, it } from 'vitest';
import { CERTIFICATE_CODE, normaliseCertificateCode } from './certificate-code';

describe('normaliseCertificateCode', () => {
  it('reads a code typed in lower case, with spaces, without or with other dashes', () => {
    for (const typed of ['ABCD-EFGH-JK23', 'abcd-efgh-jk23', ' abcd efgh jk23 ', 'abcdefghjk23', 'ABCD – EFGH — JK23', 'ab cd-ef gh-jk 23', '\tabcd\u00a0efgh jk23\n']) {
      expect([typed, normaliseCertificateCode(typed)]).toEqual([typed, 'ABCD-EFGH-JK23']);
    }
    expect(CERTIFICATE_CODE.test(normaliseCertificateCode('abcd efgh jk23'))).toBe(true);
  });

  it('leaves what is not a code for the caller to refuse', () => {
    expect(normaliseCertificateCode('abc')).toBe('ABC');
    expect(normaliseCertificateCode('abcd efgh jk2')).toBe('ABCDEFGHJK2');
    expect(CERTIFICATE_CODE.test(normaliseCertificateCode('abcd-efgh-jk2!'))).toBe(false);
  });
});
