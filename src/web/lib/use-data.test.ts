import { describe, expect, it } from 'vitest';
import { ApiRequestError, NetworkError } from './api-client';
import { pageQuery, retryCanHelp } from './use-data';

const refusal = (status: number) => new ApiRequestError(status, { success: false, code: 'not_found', message: 'Không tìm thấy bài thi.' });

describe('retryCanHelp', () => {
  it('offers a retry when no answer came or the server was away or at fault', () => {
    expect(retryCanHelp(new NetworkError(new Error('offline')))).toBe(true);
    expect(retryCanHelp(new ApiRequestError(503, { success: false, code: 'service_unavailable', message: 'Hệ thống đang bận' }))).toBe(true);
    expect(retryCanHelp(refusal(500))).toBe(true);
  });

  it('does not offer one for a refusal, which asking again would only repeat', () => {
    expect(retryCanHelp(refusal(404))).toBe(false);
    expect(retryCanHelp(refusal(403))).toBe(false);
  });
});

describe('pageQuery', () => {
  it('writes the page, the page size, the trimmed search and the filters that are set', () => {
    expect(pageQuery(2, '  Lê Lợi ', { district_id: 3, class_group_id: '', school_id: undefined }, 20)).toBe(
      'page=2&per_page=20&q=L%C3%AA+L%E1%BB%A3i&district_id=3',
    );
  });

  it('leaves out an empty search', () => {
    expect(pageQuery(1, '   ')).toBe('page=1&per_page=50');
  });
});
