// "Chuyển sang bản đồ mới" (issue 36, decision 038): the new season's list of schools on the new
// map, through the one import panel. The preview lists the units created and the schools moved,
// renamed, merged and closed; a school matched by a name written otherwise has a box to tick, and
// the commit sends the ticked rows (the server refuses it while one is missing).
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import type { CatalogueMoveAnswer } from '../../../../shared/schemas/catalogue-move';
import { formatNumber } from '../../../../shared/format';
import { downloadFile } from '../../../lib/download';
import { ImportPanel, type ImportCountsData } from '../kit/import-panel';

type MoveData = ImportCountsData & Partial<CatalogueMoveAnswer>;

function MovePreview({ data, confirmed, onConfirm }: { data: MoveData; confirmed?: Set<number>; onConfirm?: (row: number, on: boolean) => void }) {
  const n = (value: number | undefined) => formatNumber(value ?? 0);
  return (
    <div className="catalog-move">
      <p>
        Đơn vị mới: {n(data.units_created)} · Chuyển đơn vị: {n(data.moved)} · Đổi tên: {n(data.renamed)} · Sáp nhập: {n(data.merged)} · Đóng: {n(data.closed)}
      </p>
      {(data.confirmations?.length ?? 0) > 0 && onConfirm && confirmed && (
        <fieldset className="catalog-move-confirm">
          <legend>Xác nhận các trường khớp theo tên viết khác ({n(data.to_confirm)})</legend>
          {data.confirmations!.map((c) => (
            <label key={c.row}>
              <input type="checkbox" checked={confirmed.has(c.row)} onChange={(event) => onConfirm(c.row, event.target.checked)} /> Dòng {c.row}: “{c.typed}” là {c.school} ({c.unit})
            </label>
          ))}
        </fieldset>
      )}
      <MoveList title="Chuyển đơn vị" items={data.moves?.map((m) => `Dòng ${m.row}: ${m.school}: ${m.from} → ${m.to}`)} />
      <MoveList title="Đổi tên" items={data.renames?.map((r) => `Dòng ${r.row}: ${r.from} → ${r.to} (${r.unit})`)} />
      <MoveList title="Sáp nhập" items={data.merges?.map((m) => `Dòng ${m.row}: ${m.from} (${m.from_unit}) vào ${m.into} (${m.unit}), ${formatNumber(m.contestants)} thí sinh mùa này`)} />
      <MoveList title="Đóng từ mùa thi này" items={data.closures?.map((c) => `${c.school} (${c.unit}), ${formatNumber(c.contestants)} thí sinh mùa này`)} />
      <MoveList title="Tỉnh cũ" items={data.former_provinces?.map((p) => `${p.unit}: ${p.before || '(trống)'} → ${p.after}`)} />
    </div>
  );
}

function MoveList({ title, items }: { title: string; items?: string[] }) {
  if (!items?.length) return null;
  return (
    <>
      <h3 className="catalog-move-title">{title}</h3>
      <ul className="import-changes">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  );
}

export function MoveSection() {
  const [confirmed, setConfirmed] = useState<Set<number>>(new Set());
  const confirm = (row: number, on: boolean) =>
    setConfirmed((before) => {
      const next = new Set(before);
      if (on) next.add(row);
      else next.delete(row);
      return next;
    });
  return (
    <>
      <section className="admin-card">
        <h2>Chuyển danh mục sang bản đồ mới</h2>
        <p>
          Sau khi mở mùa thi mới, nhập toàn bộ danh sách trường của mùa này theo đơn vị hành chính mới. Mỗi trường giữ nguyên học sinh, tài khoản, giấy chứng nhận và giải
          thưởng khi chuyển đơn vị hoặc đổi tên; hai trường cùng tên mới trong một đơn vị được sáp nhập; trường không còn trong tệp được đóng từ mùa này (không bị xoá). Các
          mùa thi trước vẫn hiện tên trường và đơn vị như lúc đó.
        </p>
        <Button onClick={() => void downloadFile('/admin/catalog/move.xlsx', 'danh-muc-hien-tai.xlsx')}>Tải danh mục hiện tại theo mẫu</Button>
      </section>
      <ImportPanel
        title="Nhập danh mục theo bản đồ mới"
        path="/admin/catalog/move"
        template="catalog-move"
        accept=".xlsx,.csv"
        fields={{ confirm_rows: [...confirmed].join(',') }}
        hint="Tệp .xlsx hoặc .csv (UTF-8): Mã trường hoặc Tên trường cũ (và đơn vị cũ) để chỉ trường hiện tại, đơn vị mới, tên trường mới, Tỉnh cũ (có thể để trống)."
        renderPreview={(data) => <MovePreview data={data as MoveData} confirmed={confirmed} onConfirm={confirm} />}
        renderResult={(data) => <MovePreview data={data as MoveData} />}
        saveLabel={() => 'Lưu danh mục mới'}
        onImported={() => setConfirmed(new Set())}
      />
    </>
  );
}
