// The incident rules shared by the back office's dialogs and the server.
import { describe, expect, it } from 'vitest';
import { examDaysMessages } from '../messages';
import { extensionFormSchema, extensionProblems, extraAttemptProblems } from './admin-exam-days';
import { attemptRemarks } from './profile';

describe('incident rules', () => {
  it('wants a reason of 3 to 500 characters', () => {
    expect(extraAttemptProblems({ reason: '  ' })).toEqual({ reason: examDaysMessages.reasonRequired });
    expect(extraAttemptProblems({ reason: 'ab' })).toEqual({ reason: examDaysMessages.reasonLength });
    expect(extraAttemptProblems({ reason: 'x'.repeat(501) })).toEqual({ reason: examDaysMessages.reasonLength });
    expect(extraAttemptProblems({ reason: 'Mất điện' })).toEqual({});
  });

  it('allows 1 to 20 minutes of extension in total per attempt', () => {
    const reason = 'Mạng bị ngắt';
    expect(extensionProblems({ minutes: 20, reason })).toEqual({});
    expect(extensionProblems({ minutes: 0, reason })).toEqual({ minutes: examDaysMessages.minutesTooFew });
    expect(extensionProblems({ minutes: 21, reason })).toEqual({ minutes: examDaysMessages.minutesTooMany(20) });
    expect(extensionProblems({ minutes: 6, reason }, 15)).toEqual({ minutes: examDaysMessages.minutesTooMany(5) });
    expect(extensionProblems({ minutes: 1, reason }, 20)).toEqual({ minutes: examDaysMessages.minutesTooMany(0) });
    expect(extensionProblems({ minutes: 2.5, reason })).toEqual({ minutes: examDaysMessages.minutesTooFew });
  });

  it('checks the typed minutes in the dialog’s form the same way', () => {
    expect(extensionFormSchema(10).safeParse({ minutes: '10', reason: 'Mạng bị ngắt' }).success).toBe(true);
    const refused = extensionFormSchema(10).safeParse({ minutes: '11', reason: '' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['reason', examDaysMessages.reasonRequired],
      ['minutes', examDaysMessages.minutesTooMany(10)],
    ]);
  });

  it('describes an attempt the organiser changed', () => {
    expect(attemptRemarks({ extra: false, extension_minutes: 0 })).toBe('');
    expect(attemptRemarks({ extra: true, extension_minutes: 5 })).toBe('lượt thi thêm, gia hạn 5 phút');
    expect(attemptRemarks({ extra: false, extension_minutes: 20 })).toBe('gia hạn 20 phút');
  });
});
