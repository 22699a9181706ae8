// GIFT parser: examples from Moodle's documentation (docs.moodle.org/en/GIFT_format), in English
// as written there, plus Vietnamese text and the question types outside the multiple-choice subset.
import { describe, expect, it } from 'vitest';
import { looksLikeGift, parseGift } from './gift';
import { questionKey } from './question-text';

describe('parseGift', () => {
  it('reads the simple and the long multiple-choice examples, dropping titles, comments and feedback', () => {
    const text = [
      "Who's buried in Grant's tomb?{=Grant ~no one ~Napoleon ~Churchill}",
      '',
      '// question: 1 name: Grants tomb',
      "::Grants tomb::Who is buried in Grant's tomb in New York City? {",
      '=Grant',
      "~No one",
      "#Was true for 12 years, but Grant's remains were buried in the tomb in 1897",
      '~Napoleon',
      '#He was buried in France',
      '~Churchill',
      '#He was buried in England',
      '}',
    ].join('\n');
    const { questions, problems } = parseGift(text);
    expect(problems).toEqual([]);
    expect(questions).toEqual([
      { row: 1, value: "Who's buried in Grant's tomb?", answers: ['Grant', 'no one', 'Napoleon', 'Churchill'], correct: 0 },
      { row: 4, value: "Who is buried in Grant's tomb in New York City?", answers: ['Grant', 'No one', 'Napoleon', 'Churchill'], correct: 0 },
    ]);
  });

  it('reads missing-word questions (the answer set becomes a blank) and answers on their own lines', () => {
    const text = [
      'Moodle costs {~lots of money =nothing ~a small amount} to download from moodle.org.',
      '',
      'The American holiday of Thanksgiving is celebrated on the {',
      '    ~second',
      '    ~third',
      '    =fourth',
      '} Thursday of November.',
      '',
      'Japanese characters originally came from what country? {',
      '    ~India',
      '    =China',
      '    ~Korea',
      '    ~Egypt}',
    ].join('\n');
    const { questions, problems } = parseGift(text);
    expect(problems).toEqual([]);
    expect(questions.map((q) => [q.row, q.value, q.answers[q.correct]])).toEqual([
      [1, 'Moodle costs _____ to download from moodle.org.', 'nothing'],
      [3, 'The American holiday of Thanksgiving is celebrated on the _____ Thursday of November.', 'fourth'],
      [9, 'Japanese characters originally came from what country?', 'China'],
    ]);
  });

  it('resolves escapes, 100%/0% weights, [html] and $CATEGORY, in Vietnamese', () => {
    const text = [
      '$CATEGORY: $course$/Cây khế',
      '',
      '::Câu 1::[html]<p>Chim hứa trả cho người em thứ gì?</p>{=%100%Vàng ~%0%Gạo ~Áo mới}',
      '',
      'Ký hiệu \\{ và \\} gọi là gì?{=Ngoặc nhọn ~Ngoặc vuông \\= dấu bằng}',
    ].join('\n');
    const { questions, problems } = parseGift(text);
    expect(problems).toEqual([]);
    expect(questions).toEqual([
      { row: 3, value: 'Chim hứa trả cho người em thứ gì?', answers: ['Vàng', 'Gạo', 'Áo mới'], correct: 0 },
      { row: 5, value: 'Ký hiệu { và } gọi là gì?', answers: ['Ngoặc nhọn', 'Ngoặc vuông = dấu bằng'], correct: 0 },
    ]);
  });

  it('skips every other question type with why, reports malformed questions on their line, and keeps reading', () => {
    const text = [
      "Grant is buried in Grant's tomb.{F}", // 1 true/false
      '',
      "Who's buried in Grant's tomb?{=no one =nobody}", // 3 short answer
      '',
      'Match the following countries with their corresponding capitals. {', // 5 matching
      '    =Canada -> Ottawa',
      '    =Italy  -> Rome',
      '}',
      '',
      'When was Ulysses S. Grant born?{#1822:5}', // 10 numerical
      '',
      'Write a short biography of Dag Hammarskjöld. {}', // 12 essay
      '',
      "What two people are entombed in Grant's tomb? {~%-100%No one ~%50%Grant ~%50%Grant's wife ~%-100%Grant's father}", // 14
      '',
      "Who's buried in Grant's tomb?{=Grant ~no one ~Napoleon ~Churchill ~Mother Teresa }", // 16 five answers
      '',
      'Một câu không có đáp án', // 18
      '',
      'Câu hỏi {=Một ~Hai', // 20 not closed
      '',
      'Câu hỏi có hai đáp án đúng {=Một =Hai ~Ba}', // 22
      '',
      'Con gì kêu meo meo?{=Con mèo ~Con chó}', // 24 fine
    ].join('\n');
    const { questions, problems, skipped } = parseGift(text);
    expect(questions).toEqual([{ row: 24, value: 'Con gì kêu meo meo?', answers: ['Con mèo', 'Con chó'], correct: 0 }]);
    expect(skipped.map((p) => p.row)).toEqual([1, 3, 5, 10, 12, 14, 18]);
    expect(skipped.map((p) => p.skipped.split(' (')[0])).toEqual([
      'câu hỏi đúng/sai',
      'câu hỏi trả lời ngắn',
      'câu hỏi ghép cặp',
      'câu hỏi dạng số',
      'câu hỏi tự luận',
      'câu hỏi nhiều đáp án đúng có điểm từng phần',
      'đoạn mô tả',
    ]);
    expect(problems.map((p) => p.row)).toEqual([16, 20, 22]);
    expect(problems[0]!.message).toMatch(/từ 2 đến 4 đáp án \(có 5\)/);
  });

  it("skips Moodle's multiple-response questions (partial-credit weights, on any answer, with feedback) and reads the rest of the file", () => {
    const text = [
      '// question: 1 name: Grant',
      '::Grant::What two people are entombed in Grant\'s tomb? {',
      '   ~%-50%No one#Sai',
      '   ~%50%Grant#Đúng một nửa',
      '   ~%50%Grant\'s wife',
      '   ~%-50%Grant\'s father',
      '}',
      '',
      'Ba số nguyên tố đầu tiên? {~%33.33333%2 ~%33.33333%3 ~%33.33333%5 ~%-100%4}',
      '',
      'Một câu trắc nghiệm thường {=%100%Đúng ~%0%Sai}',
    ].join('\n');
    const { questions, problems, skipped } = parseGift(text);
    expect(problems).toEqual([]);
    expect(skipped.map((p) => [p.row, p.skipped.split(' (')[0]])).toEqual([
      [2, 'câu hỏi nhiều đáp án đúng có điểm từng phần'],
      [9, 'câu hỏi nhiều đáp án đúng có điểm từng phần'],
    ]);
    expect(questions).toEqual([{ row: 11, value: 'Một câu trắc nghiệm thường', answers: ['Đúng', 'Sai'], correct: 0 }]);
  });

  it("strips Moodle's [plain] [html] [markdown] [moodle] markers from the question and from each answer", () => {
    const text = [
      '::Q1:: [html]What colour is the <b>sky</b>? {=blue ~red}',
      '',
      '::Q2:: [plain]What colour is grass? {=[plain]green ~[html]<i>red</i> ~[markdown]blue}',
      '',
      '[moodle]What colour is snow? {=[moodle]white ~black}',
    ].join('\n');
    const { questions, problems } = parseGift(text);
    expect(problems).toEqual([]);
    expect(questions).toEqual([
      { row: 1, value: 'What colour is the sky?', answers: ['blue', 'red'], correct: 0 },
      { row: 3, value: 'What colour is grass?', answers: ['green', 'red', 'blue'], correct: 0 },
      { row: 5, value: 'What colour is snow?', answers: ['white', 'black'], correct: 0 },
    ]);
  });

  it('keeps text that looks like markup as typed in [plain] and the default format, converts [html]', () => {
    const text = [
      '[plain]Which tag starts a page: <html class="x">? {=<html> ~<body>}',
      '',
      '[html]Is 3 &lt; 5 in a &lt;b&gt; tag? {=Yes ~No}',
      '',
      'What colour is the <b>sky</b>? {=blue ~red}',
    ].join('\n');
    const { questions, problems } = parseGift(text);
    expect(questions).toEqual([
      { row: 1, value: 'Which tag starts a page: <html class="x">?', answers: ['<html>', '<body>'], correct: 0 },
      { row: 3, value: 'Is 3 < 5 in a <b> tag?', answers: ['Yes', 'No'], correct: 0 },
      { row: 5, value: 'What colour is the <b>sky</b>?', answers: ['blue', 'red'], correct: 0 },
    ]);
    expect(problems).toEqual([]);
  });

  it('imports a question that links to a media file, with a warning naming the file', () => {
    const text = [
      'Listen: bonjour.mp3 What does it mean? {=Hello ~Goodbye}',
      '',
      '[html]<p>Listen <audio controls src="@@PLUGINFILE@@/merci%20beaucoup.mp3"></audio></p> What does it mean? {=Thank you ~Sorry}',
      '',
      'What animal is this? <img src="cat.png"> {=A cat ~A dog}',
    ].join('\n');
    const { questions, problems } = parseGift(text);
    expect(problems).toEqual([]);
    expect(questions.map((q) => [q.value, q.warning])).toEqual([
      ['Listen: bonjour.mp3 What does it mean?', 'câu hỏi có liên kết tệp âm thanh/hình ảnh bonjour.mp3, tệp này không được nhập: hãy tải âm thanh lên trong trình sửa câu hỏi'],
      ['Listen What does it mean?', expect.stringContaining('merci beaucoup.mp3')],
      ['What animal is this?', expect.stringContaining('cat.png')],
    ]);
  });

  it('is recognised by its answer set', () => {
    expect(looksLikeGift('Q {=a ~b}')).toBe(true);
    expect(looksLikeGift('Q?\nA. a\nB. b\nANSWER: A')).toBe(false);
  });
});

describe('questionKey', () => {
  it('ignores answer order and white space, not the correct answer', () => {
    const a = questionKey({ value: ' Con gì  kêu meo meo? ', answers: ['Con mèo', 'Con chó'], correct: 0 });
    expect(questionKey({ value: 'Con gì kêu meo meo?', answers: ['Con chó', 'Con\u00a0mèo'], correct: 1 })).toBe(a);
    expect(questionKey({ value: 'Con gì kêu meo meo?', answers: ['Con mèo', 'Con chó'], correct: 1 })).not.toBe(a);
  });
});
