// What a question file's preview says besides its counts: the questions of other types that are
// left out (an essay, a matching question... of a Moodle GIFT file), and what imported questions
// lose (a media file they link to). The server lists the first 200 of each and counts them all.
import { formatNumber } from '../../../../shared/format';
import type { ImportCountsData } from '../ui/import-panel';

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
