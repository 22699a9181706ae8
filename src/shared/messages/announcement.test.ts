import { describe, expect, it } from 'vitest';
import { resultMessages } from './index';

describe('resultMessages.announcement', () => {
  it('says the results will be published on their date while nothing is published', () => {
    expect(resultMessages.announcement(false, '02/12/2026')).toBe('Kết quả và giải thưởng sẽ được công bố ngày 02/12/2026.');
    expect(resultMessages.announcement(false, '02/12/2026', 'Kết quả')).toBe('Kết quả sẽ được công bố ngày 02/12/2026.');
  });

  it('says they were published once they are', () => {
    expect(resultMessages.announcement(true, '02/12/2026')).toBe('Kết quả và giải thưởng đã được công bố.');
  });
});
