// What a merge of two schools or two districts would move, as the server counted it for the
// chosen target (GET …/merge?into_id=): shown in the merge dialog before the organiser confirms.
import { formatNumber } from '../../../../shared/format';
import type { DistrictMergePreview, SchoolMergePreview } from '../../../../shared/schemas/admin-catalog';
import { useUnitWords } from '../../../lib/site';

type JoinedClass = SchoolMergePreview['joined_classes'][number];

function joinedClassLine(c: JoinedClass, fromName: string) {
  const teacher = c.kept_teacher ? `giáo viên ${c.kept_teacher}` : 'chưa có giáo viên';
  const dropped = c.dropped_teacher ? ` (thay cho ${c.dropped_teacher} của ${fromName})` : '';
  const renamed = c.pupils_renamed > 0 ? `; ${formatNumber(c.pupils_renamed)} thí sinh đổi tên lớp cho khớp` : '';
  return `Lớp ${c.class_name}: học sinh hai trường thành một lớp, ${teacher}${dropped}${renamed}.`;
}

/** The results line: what the stored results lose until they are computed again. */
function ResultsNote({ computed, prizes, whose }: { computed: boolean; prizes: string[]; whose: string }) {
  if (!computed) return null;
  return (
    <p>
      Kết quả đã được tính: việc gộp được ghi vào danh sách thay đổi của trang Kết quả, và cần <strong>tính lại kết quả</strong> trước khi công bố.
      {prizes.length > 0 && ` Giải ${whose} trong kết quả đã tính (${prizes.join('; ')}) bị bỏ cho đến khi tính lại.`}
    </p>
  );
}

export function SchoolMergeSummary({ preview: p }: { preview: SchoolMergePreview }) {
  return (
    <>
      <p>
        Từ <strong>{p.from.name}</strong> ({p.from.district_name}) sang <strong>{p.into.name}</strong> ({p.into.district_name}) sẽ chuyển:
      </p>
      <ul aria-label="Những gì sẽ chuyển">
        <li>
          {formatNumber(p.contestants)} thí sinh và {formatNumber(p.exams)} bài thi của các em
          {p.from.district_name !== p.into.district_name && ` (chuyển sang ${p.into.district_name})`}
        </li>
        <li>{formatNumber(p.school_admins)} tài khoản quản trị trường</li>
        <li>{formatNumber(p.class_teachers)} giáo viên lớp</li>
        {p.pupil_prizes > 0 && <li>{formatNumber(p.pupil_prizes)} giải của học sinh (đi theo các em)</li>}
        {p.joined_classes.map((c) => (
          <li key={c.class_name}>{joinedClassLine(c, p.from.name)}</li>
        ))}
      </ul>
      <ResultsNote computed={p.results_computed} prizes={p.school_prizes} whose={`của trường ${p.from.name}`} />
    </>
  );
}

export function DistrictMergeSummary({ preview: p }: { preview: DistrictMergePreview }) {
  const say = useUnitWords();
  return (
    <>
      <p>
        Từ <strong>{p.from.name}</strong> sang <strong>{p.into.name}</strong>: {formatNumber(p.contestants)} thí sinh, {formatNumber(p.school_admins)} tài khoản
        quản trị trường, {formatNumber(p.class_teachers)} giáo viên lớp.
      </p>
      {p.schools_moved.length > 0 && (
        <>
          <p>Trường chuyển sang {p.into.name} ({formatNumber(p.schools_moved.length)}):</p>
          <ul aria-label="Trường chuyển sang">
            {p.schools_moved.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        </>
      )}
      {p.schools_joined.length > 0 && (
        <>
          <p>Trường trùng tên được gộp làm một ({formatNumber(p.schools_joined.length)}):</p>
          <ul aria-label="Trường trùng tên được gộp">
            {p.schools_joined.map((school) => (
              <li key={school.from.id}>
                {school.from.name} → {school.into.name}: {formatNumber(school.contestants)} thí sinh, {formatNumber(school.school_admins)} tài khoản quản trị
                trường, {formatNumber(school.class_teachers)} giáo viên lớp chuyển sang.
                {school.joined_classes.length > 0 && (
                  <ul>
                    {school.joined_classes.map((c) => (
                      <li key={c.class_name}>{joinedClassLine(c, school.from.name)}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {p.schools_moved.length === 0 && p.schools_joined.length === 0 && <p>{say('Quận/huyện này chưa có trường nào.')}</p>}
      <ResultsNote computed={p.results_computed} prizes={p.schools_joined.flatMap((s) => s.school_prizes)} whose="của các trường được gộp" />
    </>
  );
}
