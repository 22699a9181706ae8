// The prize list of one tier kind, filtered by district and school, paged on the server.
import { useState } from 'react';
import { formatDuration, formatMoney, formatNumber } from '../../../../shared/format';
import { prizeKindLabels, prizeKinds, type PrizeKindName } from '../../../../shared/schemas/admin-contest';
import type { PrizeRow } from '../../../../shared/schemas/admin-results';
import type { Page } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/field';
import { Pager } from '../ui/pager';
import { pageQuery, useApiData } from '../../../lib/use-data';
import { downloadExport } from './download-export';

const PER_PAGE = 50;

export function PrizeList({ version }: { version: number }) {
  const [kind, setKind] = useState<PrizeKindName>('individual');
  const [districtId, setDistrictId] = useState('');
  const [schoolId, setSchoolId] = useState('');
  const [page, setPage] = useState(1);
  const districts = useApiData<{ id: number; name: string }[]>('/districts');
  const schools = useApiData<{ id: number; name: string }[]>(districtId ? `/schools?district_id=${districtId}` : null);
  const filters = { kind, district_id: districtId || undefined, school_id: schoolId || undefined };
  const list = useApiData<Page<PrizeRow>>(`/admin/results/prizes?${pageQuery(page, '', filters, PER_PAGE)}`, version);
  const pupils = kind === 'individual' || kind === 'school_pupils';
  const filterQuery = new URLSearchParams(Object.entries({ district_id: districtId, school_id: schoolId }).filter(([, value]) => value)).toString();

  return (
    <div className="admin-card">
      <h2>Danh sách giải</h2>
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
          label="Quận/Huyện"
          value={districtId}
          onChange={(event) => {
            setDistrictId(event.target.value);
            setSchoolId('');
            setPage(1);
          }}
        >
          <option value="">Tất cả</option>
          {districts.data?.map((district) => (
            <option key={district.id} value={district.id}>
              {district.name}
            </option>
          ))}
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
          {schools.data?.map((school) => (
            <option key={school.id} value={school.id}>
              {school.name}
            </option>
          ))}
        </SelectField>
        <Button variant="outline" onClick={() => downloadExport('winners', filterQuery ? `?${filterQuery}` : '')}>
          Xuất danh sách này (.xlsx)
        </Button>
      </div>
      {list.message && <p role="alert" className="field-error">{list.message}</p>}
      {list.data && (
        <>
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="muted">
                {prizeKindLabels[kind]}: {formatNumber(list.data.total)} giải
              </caption>
              <thead>
                <tr>
                  <th scope="col">{kind === 'school_pupils' ? 'Hạng trong trường' : 'Hạng'}</th>
                  <th scope="col">{kind === 'school' ? 'Trường' : kind === 'teacher' ? 'Giáo viên' : 'Họ và tên'}</th>
                  {kind !== 'school' && <th scope="col">Trường, lớp</th>}
                  <th scope="col">Quận/Huyện</th>
                  {kind !== 'school' && <th scope="col" className="num">{pupils ? 'Điểm' : 'Điểm TB'}</th>}
                  {kind !== 'school' && <th scope="col" className="num">{pupils ? 'Thời gian' : 'Thời gian TB'}</th>}
                  {pupils && <th scope="col" className="num">Dự đoán</th>}
                  {!pupils && <th scope="col">Tham gia</th>}
                  <th scope="col">Giải</th>
                  <th scope="col" className="num">Tiền thưởng</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((row, index) => (
                  <tr key={`${row.rank}-${row.name}-${index}`}>
                    <td>
                      {row.rank ?? ''}
                      {row.tied ? ' (đồng hạng)' : ''}
                    </td>
                    <td>{row.name}</td>
                    {kind !== 'school' && (
                      <td>
                        {row.school}
                        {row.class_name ? `, lớp ${row.class_name}` : ''}
                      </td>
                    )}
                    <td>{row.district}</td>
                    {kind !== 'school' && <td className="num">{row.points === null ? '' : formatNumber(row.points, pupils ? 0 : 2)}</td>}
                    {kind !== 'school' && <td className="num">{row.duration_seconds === null ? '' : formatDuration(row.duration_seconds)}</td>}
                    {pupils && <td className="num">{row.prediction === null ? '' : formatNumber(row.prediction)}</td>}
                    {!pupils && <td>{row.detail}</td>}
                    <td>{row.prize}</td>
                    <td className="num">{formatMoney(row.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} />
        </>
      )}
    </div>
  );
}
