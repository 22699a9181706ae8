// What a question file's preview says besides its counts: the questions of other types that are
// left out (an essay, a matching question... of a Moodle GIFT file), and what imported questions
// lose (a media file they link to). The server lists the first 200 of each and counts them all.
import { formatNumber } from '../../../../shared/format';
import { ANSWER_LETTERS } from '../../../../shared/question-formats/question-text';
import type { QuestionImportData } from '../../../../shared/schemas/admin-books';
import type { ImportCountsData } from '../kit/import-panel';

interface Note {
  row: number;
  message: string;
}

const notesOf = (data: ImportCountsData, key: 'skipped' | 'warnings') => (Array.isArray(data[key]) ? (data[key] as Note[]) : []);
const totalOf = (data: ImportCountsData, key: 'skipped_total' | 'warnings_total') => (typeof data[key] === 'number' ? data[key] : 0);

function NoteList({ title, notes, total }: { title: string; notes: Note[]; total: number }) {
  return (
    <details className="import-notes" open={total <= 20}>
      <summary>{title}</summary>
      <ul>
        {notes.map((note) => (
          <li key={note.row}>
            Dòng {note.row}: {note.message}
          </li>
        ))}
      </ul>
      {total > notes.length && <p>… và {formatNumber(total - notes.length)} câu khác.</p>}
    </details>
  );
}

export function QuestionFileNotes({ data }: { data: ImportCountsData }) {
  const skipped = totalOf(data, 'skipped_total');
  const warnings = totalOf(data, 'warnings_total');
  return (
    <>
      {skipped > 0 && <NoteList title={`${formatNumber(skipped)} câu không phải trắc nghiệm sẽ được bỏ qua`} notes={notesOf(data, 'skipped')} total={skipped} />}
      {warnings > 0 && <NoteList title={`${formatNumber(warnings)} câu có liên kết tệp âm thanh/hình ảnh không được nhập`} notes={notesOf(data, 'warnings')} total={warnings} />}
    </>
  );
}

/** What a question file was read as, for the preview and the save button ("tệp GIFT", "tệp Excel"). */
export function questionFileKind(data: ImportCountsData): string {
  const kinds: Record<string, string> = { gift: 'tệp GIFT', aiken: 'tệp Aiken', xlsx: 'tệp Excel', csv: 'tệp CSV' };
  return kinds[String(data.format)] ?? 'tệp';
}

/** Whether the file's rows are questions (a text file) or spreadsheet rows. */
export const questionFileUnit = (data: ImportCountsData) => (data.format === 'gift' || data.format === 'aiken' ? 'câu hỏi' : 'dòng');

/** The file's questions as the server read them, each with its answers and the key marked. */
export function ParsedQuestions({ data }: { data: ImportCountsData }) {
  const questions = Array.isArray(data.questions) ? (data.questions as QuestionImportData['questions']) : [];
  const total = typeof data.questions_total === 'number' ? data.questions_total : questions.length;
  if (questions.length === 0) return null;
  return (
    <details className="import-notes parsed-questions" open>
      <summary>
        Các câu hỏi đọc được từ {questionFileKind(data)} ({formatNumber(total)} câu): hãy xem lại đáp án đúng trước khi lưu
      </summary>
      <ol>
        {questions.map((q) => (
          <li key={q.row}>
            <p className="parsed-question-text">
              Dòng {q.row}: {q.value}
              {q.in_bank && <em> (đã có trong ngân hàng)</em>}
            </p>
            <ul aria-label={`Đáp án của câu ở dòng ${q.row}`}>
              {q.answers.map((answer, i) => (
                <li key={i} className={i === q.correct ? 'parsed-key' : undefined}>
                  {ANSWER_LETTERS[i]}. {answer}
                  {i === q.correct && <strong> ✓ đáp án đúng</strong>}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {total > questions.length && <p>… và {formatNumber(total - questions.length)} câu khác.</p>}
    </details>
  );
}
