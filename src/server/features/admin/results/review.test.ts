import { describe, expect, it } from 'vitest';
import type { PrizeDbRow } from './repo';
import { deciding, resultNote } from './review';

const at = (ms: number) => new Date(Date.UTC(2026, 3, 2, 2, 0, 0) + ms);
const row = (own: Partial<PrizeDbRow>, above: Partial<PrizeDbRow> | null): PrizeDbRow => ({
  contestant_id: 1,
  rank: 2,
  tied: false,
  name: 'An',
  school: 'Trường',
  district: 'Quận',
  class_name: '5A1',
  points: 100,
  duration_seconds: 2,
  detail: null,
  prediction: 360,
  prize: 'Giải Nhất',
  amount: 5_000_000,
  parent_phone: null,
  submitted_at: at(0),
  prediction_distance: '5',
  rank_tied: false,
  above_points: above ? (above.points ?? 100) : null,
  above_duration_seconds: above ? (above.duration_seconds ?? 2) : null,
  above_submitted_at: above ? (above.submitted_at ?? at(0)) : null,
  above_prediction_distance: above ? (above.prediction_distance ?? '5') : null,
  ...own,
});

describe('what decided a place against the pupil above', () => {
  it('says nothing for the first pupil, or when the score or the time differs', () => {
    expect(deciding(row({}, null))).toBeNull();
    expect(deciding(row({ points: 95 }, {}))).toBeNull();
    expect(deciding(row({ duration_seconds: 3 }, {}))).toBeNull();
  });

  it('gives the submission to the second, then the prediction, then the tie', () => {
    expect(deciding(row({ submitted_at: at(2_234) }, { submitted_at: at(0) }))).toBe('Nộp bài muộn hơn người xếp trên 2 giây');
    // 16 ms apart within one second decide nothing (issue 42): the prediction does.
    expect(deciding(row({ submitted_at: at(16), prediction_distance: '12' }, { submitted_at: at(0), prediction_distance: '5' }))).toBe(
      'Nộp bài trong cùng một giây; dự đoán lệch 12 (người xếp trên lệch 5)',
    );
    expect(deciding(row({ prediction_distance: null }, { prediction_distance: '5' }))).toBe('Nộp bài trong cùng một giây; không có câu dự đoán');
    expect(deciding(row({ rank_tied: true }, {}))).toBe('Đồng hạng: bằng nhau cả bốn tiêu chí');
    expect(deciding(row({}, {}))).toBe('Bằng nhau cả bốn tiêu chí: theo quyết định của Ban tổ chức về đồng hạng');
  });
});

describe('resultNote', () => {
  it('says why a pupil is last or without a prize, and that a holder was erased; nothing otherwise', () => {
    expect(resultNote({})).toBeNull();
    expect(resultNote({ held: false, held_reason: null, withdrawn_reasons: null, anonymised_at: null })).toBeNull();
    expect(resultNote({ held: true, held_reason: 'Bài giống bài số 12' })).toBe('Tạm giữ giải: Bài giống bài số 12 (xếp sau mọi thí sinh khác)');
    // A hold lifted since the computation: the stored result is still held, its reason gone.
    expect(resultNote({ held: true, held_reason: null })).toBe('Tạm giữ giải (xếp sau mọi thí sinh khác)');
    expect(resultNote({ withdrawn_reasons: 'Giải Nhất: Gia đình từ chối' })).toBe('Đã rút Giải Nhất: Gia đình từ chối');
    expect(resultNote({ held: true, held_reason: 'Làm quá nhanh', anonymised_at: new Date() })).toBe(
      'Tạm giữ giải: Làm quá nhanh (xếp sau mọi thí sinh khác); Dữ liệu cá nhân của thí sinh đã được xoá theo yêu cầu (hoặc hết thời hạn lưu giữ)',
    );
  });
});
