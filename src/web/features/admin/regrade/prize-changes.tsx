// The prizes a regrade gives, takes or changes, as the dry run found them.
import type { PrizeChange } from '../../../../shared/schemas/admin-regrade';

const kindLabels: Record<PrizeChange['kind'], string> = {
  individual: 'Giải cá nhân',
  school_pupils: 'Học sinh tiêu biểu của trường',
  teacher: 'Giáo viên truyền lửa',
};
const changeLabels: Record<PrizeChange['change'], string> = { gain: 'Được giải', lose: 'Mất giải', change: 'Đổi giải' };
const rank = (value: number | null) => (value === null ? '–' : String(value));

export function PrizeChanges({ changes }: { changes: PrizeChange[] }) {
  if (changes.length === 0) return <p>Không giải thưởng nào thay đổi.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption>Giải thưởng thay đổi ({changes.length})</caption>
        <thead>
          <tr>
            <th scope="col">Loại giải</th>
            <th scope="col">Thí sinh / lớp</th>
            <th scope="col">Trường</th>
            <th scope="col" className="num">Hạng cũ → mới</th>
            <th scope="col">Giải cũ → mới</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change, i) => (
            <tr key={`${change.kind}-${change.contestant_id ?? change.name}-${i}`}>
              <td>
                {kindLabels[change.kind]}: <strong>{changeLabels[change.change]}</strong>
              </td>
              <td>{change.name}</td>
              <td>{change.school_name}</td>
              <td className="num">
                {rank(change.rank_before)} → {rank(change.rank_after)}
              </td>
              <td>
                {change.prize_before ?? 'Không có giải'} → {change.prize_after ?? 'Không có giải'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
