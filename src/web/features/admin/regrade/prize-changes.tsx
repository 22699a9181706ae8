// The prizes a regrade gives, takes or changes, as the dry run found them.
import type { PrizeChange } from '../../../../shared/schemas/admin-regrade';
import { DataTable } from '../../../components/ui/data-table';

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
    <DataTable
      caption={`Giải thưởng thay đổi (${changes.length})`}
      captionClass=""
      rows={changes}
      rowKey={(change, i) => `${change.kind}-${change.contestant_id ?? change.name}-${i}`}
      columns={[
        {
          header: 'Loại giải',
          cell: (change) => (
            <>
              {kindLabels[change.kind]}: <strong>{changeLabels[change.change]}</strong>
            </>
          ),
        },
        { header: 'Thí sinh / lớp', cell: (change) => change.name },
        { header: 'Trường', cell: (change) => change.school_name },
        { header: 'Hạng cũ → mới', numeric: true, cell: (change) => `${rank(change.rank_before)} → ${rank(change.rank_after)}` },
        { header: 'Giải cũ → mới', cell: (change) => `${change.prize_before ?? 'Không có giải'} → ${change.prize_after ?? 'Không có giải'}` },
      ]}
    />
  );
}
