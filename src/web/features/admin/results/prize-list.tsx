// The prize list of one tier kind, filtered by district and school, paged on the server.
import { useState } from 'react';
import { formatDuration, formatMoney, formatNumber } from '../../../../shared/format';
import { prizeKindLabels, prizeKinds, type PrizeKindName } from '../../../../shared/schemas/admin-contest';
import type { PrizeRow } from '../../../../shared/schemas/admin-results';
import type { Page } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/field';
import { PagedTable } from '../../../components/ui/data-table';
import { NamedOptions, useDistrictSchools } from '../kit/district-schools';
import { pageQuery, useApiData } from '../../../lib/use-data';
import { downloadExport } from './download-export';
import { WithdrawPrizeDialog } from './withdraw-prize';
import { useUnitWords } from '../../../lib/site';

const PER_PAGE = 50;

/** `season`: an earlier season's list, read-only (no withdrawal), its exports too (issue 26). */
export function PrizeList({ version, onChange, season }: { version: number; onChange: () => void; season?: number }) {
  const say = useUnitWords();
  const [kind, setKind] = useState<PrizeKindName>('individual');
  const [withdrawing, setWithdrawing] = useState<PrizeRow>();
  const [districtId, setDistrictId] = useState('');
  const [schoolId, setSchoolId] = useState('');
  const [page, setPage] = useState(1);
  const { districts, schools } = useDistrictSchools(districtId);
  const filters = { season, kind, district_id: districtId || undefined, school_id: schoolId || undefined };
  const list = useApiData<Page<PrizeRow>>(`/admin/results/prizes?${pageQuery(page, '', filters, PER_PAGE)}`, version);
  const pupils = kind === 'individual' || kind === 'school_pupils';
  // 'Xuất danh sách này': this tier only, with the district/school filter on screen.
  const exportQuery = new URLSearchParams(
    Object.entries({ season: season ? String(season) : '', tier: kind, district_id: districtId, school_id: schoolId }).filter(([, value]) => value),
  ).toString();

  return (
    <div className="admin-card">
      {!season && <h2>Danh sách giải</h2>}
      <div className="admin-toolbar">
        <SelectField
          label="Loại giải"
          value={kind}
          onChange={(event) => {
            setKind(event.target.value as PrizeKindName);
            setPage(1);
          }}
        >
          {prizeKinds.map((value) => (
            <option key={value} value={value}>
              {prizeKindLabels[value]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={say('Quận/Huyện')}
          value={districtId}
          onChange={(event) => {
            setDistrictId(event.target.value);
            setSchoolId('');
            setPage(1);
          }}
        >
          <option value="">Tất cả</option>
          <NamedOptions items={districts.data} />
        </SelectField>
        <SelectField
          label="Trường"
          value={schoolId}
          disabled={!districtId}
          onChange={(event) => {
            setSchoolId(event.target.value);
            setPage(1);
          }}
        >
          <option value="">Tất cả</option>
          <NamedOptions items={schools.data} />
        </SelectField>
        <Button variant="outline" onClick={() => downloadExport('winners', `?${exportQuery}`)}>
          Xuất danh sách này (.xlsx)
        </Button>
      </div>
      {list.message && !list.data && <p role="alert" className="field-error">{list.message}</p>}
      {list.data && (
        <PagedTable
          caption={`${prizeKindLabels[kind]}: ${formatNumber(list.data.total)} giải`}
          captionClass="muted"
          list={list}
          onPage={setPage}
          rowKey={(row, index) => `${row.rank}-${row.name}-${index}`}
          columns={[
            { header: kind === 'school_pupils' ? 'Hạng trong trường' : 'Hạng', cell: (row) => `${row.rank ?? ''}${row.tied ? ' (đồng hạng)' : ''}` },
            { header: kind === 'school' ? 'Trường' : kind === 'teacher' ? 'Giáo viên' : 'Họ và tên', cell: (row) => row.name, className: 'results-name' },
            // The prize and its money next to the name: what the list is for stays in sight on a
            // tablet, the details after them scroll in the table's frame.
            { header: 'Giải', cell: (row) => row.prize, className: 'results-prize' },
            { header: 'Tiền thưởng', numeric: true, cell: (row) => formatMoney(row.amount) },
            kind !== 'school' && { header: 'Trường, lớp', cell: (row) => `${row.school}${row.class_name ? `, lớp ${row.class_name}` : ''}`, className: 'results-name' },
            { header: say('Quận/Huyện'), cell: (row) => row.district },
            kind !== 'school' && {
              header: pupils ? 'Điểm' : 'Điểm TB',
              numeric: true,
              cell: (row) => (row.points === null ? '' : formatNumber(row.points, pupils ? 0 : 2)),
            },
            kind !== 'school' && {
              header: pupils ? 'Thời gian' : 'Thời gian TB',
              numeric: true,
              cell: (row) => (row.duration_seconds === null ? '' : formatDuration(row.duration_seconds)),
            },
            pupils && { header: 'Dự đoán', numeric: true, cell: (row) => (row.prediction === null ? '' : formatNumber(row.prediction)) },
            pupils && {
              header: 'Nộp bài lúc, phân định',
              cell: (row) => (
                <>
                  {row.submitted_at}
                  {row.decided_by && <span className="results-decided">{row.decided_by}</span>}
                </>
              ),
            },
            pupils && { header: 'Ghi chú', cell: (row) => row.note },
            !pupils && { header: 'Tham gia', cell: (row) => row.detail },
            pupils && !season && {
              header: 'Thao tác',
              cell: (row) =>
                row.contestant_id !== null && (
                  <Button variant="outline" aria-label={`Rút giải của ${row.name}`} onClick={() => setWithdrawing(row)}>
                    Rút giải
                  </Button>
                ),
            },
          ]}
        />
      )}
      {withdrawing && pupils && (
        <WithdrawPrizeDialog
          row={withdrawing}
          kind={kind}
          onClose={() => setWithdrawing(undefined)}
          onDone={() => {
            setWithdrawing(undefined);
            onChange();
          }}
        />
      )}
    </div>
  );
}
