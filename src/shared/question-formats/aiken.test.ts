// Aiken parser: the example of Moodle's documentation (docs.moodle.org/en/Aiken_format) and the
// mistakes people make writing it.
import { describe, expect, it } from 'vitest';
import { looksLikeAiken, parseAiken } from './aiken';

const moodleExample = `What is the correct answer to this question?
A. Is it this one?
B. Maybe this answer?
C. Possibly this one?
D. Must be this one!
ANSWER: D

Which LMS has the most quiz import formats?
A) Moodle
B) ATutor
C) Claroline
D) Blackboard
E) WebCT
F) Ilias
ANSWER: A
`;

describe('parseAiken', () => {
  it("reads Moodle's example; more than four answers is a problem on the question's line", () => {
    const { questions, problems } = parseAiken(moodleExample);
    expect(questions).toEqual([
      { row: 1, value: 'What is the correct answer to this question?', answers: ['Is it this one?', 'Maybe this answer?', 'Possibly this one?', 'Must be this one!'], correct: 3 },
    ]);
    expect(problems).toEqual([{ row: 8, message: 'câu hỏi phải có từ 2 đến 4 đáp án (có 6)' }]);
  });

  it('takes "A)Incorrect" without a space after the letter, as Moodle does (/^[A-Z][).][ \\t]?/)', () => {
    const { questions, problems } = parseAiken('What is 2+2?\nA)3\nB)4\nC.5\nANSWER: B\n');
    expect(problems).toEqual([]);
    expect(questions).toEqual([{ row: 1, value: 'What is 2+2?', answers: ['3', '4', '5'], correct: 1 }]);
    expect(parseAiken('Q?\nA)\nB) b\nANSWER: B').problems).toEqual([{ row: 2, message: 'đáp án A để trống' }]);
  });

  it('keeps text that looks like markup as typed (Aiken is plain text), and warns of a media link', () => {
    const { questions, problems } = parseAiken('Which tag starts a page: <html class="x">?\nA) <html>\nB) a <b> c\nANSWER: A\n\nListen to bonjour.mp3: what is it?\nA) Hello\nB) Bye\nANSWER: A');
    expect(problems).toEqual([]);
    expect(questions[0]).toEqual({ row: 1, value: 'Which tag starts a page: <html class="x">?', answers: ['<html>', 'a <b> c'], correct: 0 });
    expect(questions[1]!.warning).toBe('câu hỏi có liên kết tệp âm thanh/hình ảnh bonjour.mp3, tệp này không được nhập: hãy tải âm thanh lên trong trình sửa câu hỏi');
  });

  it('reads Vietnamese questions with 2 to 4 answers, without blank lines between them', () => {
    const text = 'Nhà có mấy anh em?\r\nA. Một\r\nB. Hai\r\nC. Ba\r\nANSWER: B\r\nCây khế ở đâu?\r\nA) Trong vườn\r\nB) Trên núi\r\nANSWER: a\r\n';
    const { questions, problems } = parseAiken(text);
    expect(problems).toEqual([]);
    expect(questions).toEqual([
      { row: 1, value: 'Nhà có mấy anh em?', answers: ['Một', 'Hai', 'Ba'], correct: 1 },
      { row: 6, value: 'Cây khế ở đâu?', answers: ['Trong vườn', 'Trên núi'], correct: 0 },
    ]);
  });

  it('reports a missing ANSWER line, a key that is not an answer, answers out of order and a stray key', () => {
    const text = [
      'Câu một?', // 1
      'A. x',
      'B. y',
      'Câu hai?', // 4: question 1 had no ANSWER
      'A. x',
      'B. y',
      'ANSWER: C', // 7
      '',
      'Câu ba?', // 9
      'A. x',
      'C. y', // 11
      'ANSWER: A',
      'ANSWER: B', // 13
      'Câu bốn?', // 14
      'A. x',
    ].join('\n');
    const { questions, problems } = parseAiken(text);
    expect(problems.map((p) => p.row)).toEqual([1, 7, 11, 13, 14]);
    expect(problems[1]!.message).toContain('"C"');
    expect(questions).toEqual([{ row: 9, value: 'Câu ba?', answers: ['x', 'y'], correct: 0 }]);
  });

  it('is recognised by its ANSWER lines', () => {
    expect(looksLikeAiken(moodleExample)).toBe(true);
    expect(looksLikeAiken('Q?{=a ~b}')).toBe(false);
  });
});
