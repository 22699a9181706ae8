// Districts and schools: the import, the lists (paged on the server), add, edit, delete what
// nothing uses, and merge a school into another.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../../shared/schemas/admin';
import {
  districtInputSchema,
  mergeInputSchema,
  schoolInputSchema,
  type AdminDistrict,
  type AdminSchool,
  type SchoolUsage,
} from '../../../../shared/schemas/admin-catalog';
import { ImportPanel } from '../ui/import-panel';
import { Pager } from '../ui/pager';
import { pageQuery, useAdminData } from '../ui/use-admin-data';
import { ConfirmDelete, SearchBox } from './catalog-ui';
import { formatNumber } from '../../../../shared/format';
import { DialogFormActions, reportSaveError } from '../ui/form-parts';

/** Every district, for the selects (a province has a few dozen). */
export function useAllDistricts(version = 0) {
  return useAdminData<Page<AdminDistrict>>('/admin/districts?per_page=200', version);
}

export function SchoolsSection() {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  return (
    <>
      <ImportPanel
        title="Nhập danh sách trường từ tệp"
        path="/admin/schools/import"
        template="schools"
        accept=".xlsx,.csv"
        hint="Tệp .xlsx hoặc .csv (UTF-8) theo mẫu: Quận/Huyện, Trường, Địa chỉ, Số học sinh. Quận/huyện chưa có sẽ được thêm."
        onImported={changed}
      />
      <DistrictsCard version={version} onChanged={changed} />
      <SchoolsCard version={version} onChanged={changed} />
    </>
  );
}

// Districts -------------------------------------------------------------------------------------
function DistrictsCard({ version, onChanged }: { version: number; onChanged: () => void }) {
  const [page, setPage] = useState(1);
  const list = useAdminData<Page<AdminDistrict>>(`/admin/districts?${pageQuery(page, '', {}, 20)}`, version);
  const [editing, setEditing] = useState<AdminDistrict | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminDistrict | null>(null);
  return (
    <section className="admin-card" aria-labelledby="districts-title">
      <h2 id="districts-title">Quận/Huyện</h2>
      <div className="admin-actions">
        <Button onClick={() => setEditing('new')}>Thêm quận/huyện</Button>
      </div>
      {list.error && <p role="alert">{list.error}</p>}
      <div className="admin-table-wrap" aria-busy={list.loading}>
        <table className="admin-table">
          <caption className="visually-hidden">Danh sách quận/huyện</caption>
          <thead>
            <tr>
              <th scope="col">Quận/Huyện</th>
              <th scope="col" className="num">
                Số trường
              </th>
              <th scope="col">Thao tác</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((district) => (
              <tr key={district.id}>
                <td>{district.name}</td>
                <td className="num">{formatNumber(district.schools)}</td>
                <td>
                  <div className="catalog-row-actions">
                    <Button variant="outline" onClick={() => setEditing(district)} aria-label={`Đổi tên ${district.name}`}>
                      Đổi tên
                    </Button>
                    <Button variant="outline" onClick={() => setDeleting(district)} aria-label={`Xoá ${district.name}`}>
                      Xoá
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data && <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={setPage} />}
      {editing && (
        <DistrictDialog
          district={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
      {deleting && (
        <ConfirmDelete
          title={`Xoá quận/huyện ${deleting.name}?`}
          onDelete={async () => {
            await api.delete(`/admin/districts/${deleting.id}`);
            onChanged();
          }}
          onClose={() => setDeleting(null)}
        >
          <p>Chỉ xoá được quận/huyện chưa có trường nào.</p>
        </ConfirmDelete>
      )}
    </section>
  );
}

function DistrictDialog({ district, onClose, onSaved }: { district?: AdminDistrict; onClose: () => void; onSaved: () => void }) {
  const form = useForm<z.input<typeof districtInputSchema>, unknown, z.output<typeof districtInputSchema>>({
    resolver: zodResolver(districtInputSchema),
    defaultValues: { name: district?.name ?? '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (district) await api.put(`/admin/districts/${district.id}`, values);
      else await api.post('/admin/districts', values);
      notify('success', 'Đã lưu quận/huyện');
      onSaved();
    } catch (error) {
      reportSaveError(error, form.setError, ['name'], 'Không lưu được');
    }
  });
  return (
    <Modal title={district ? `Đổi tên ${district.name}` : 'Thêm quận/huyện'} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Tên quận/huyện" {...form.register('name')} error={form.formState.errors.name?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} />
      </form>
    </Modal>
  );
}

// Schools ---------------------------------------------------------------------------------------
function SchoolsCard({ version, onChanged }: { version: number; onChanged: () => void }) {
  const [districtId, setDistrictId] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const districts = useAllDistricts(version);
  const list = useAdminData<Page<AdminSchool>>(`/admin/schools?${pageQuery(page, search, { district_id: districtId })}`, version);
  const [editing, setEditing] = useState<AdminSchool | 'new' | null>(null);
  const [merging, setMerging] = useState<AdminSchool | null>(null);
  const [deleting, setDeleting] = useState<AdminSchool | null>(null);
  const districtOptions = districts.data?.items ?? [];

  return (
    <section className="admin-card" aria-labelledby="schools-title">
      <h2 id="schools-title">Trường</h2>
      <div className="admin-toolbar">
        <SelectField
          label="Quận/Huyện"
          value={districtId}
          onChange={(event) => {
            setDistrictId(event.target.value);
            setPage(1);
          }}
        >
          <option value="">Tất cả</option>
          {districtOptions.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <SearchBox
          label="Tìm trường (tên, địa chỉ)"
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
        <Button onClick={() => setEditing('new')}>Thêm trường</Button>
      </div>
      {list.error && <p role="alert">{list.error}</p>}
      <div className="admin-table-wrap" aria-busy={list.loading}>
        <table className="admin-table">
          <caption className="visually-hidden">Danh sách trường</caption>
          <thead>
            <tr>
              <th scope="col">Trường</th>
              <th scope="col">Quận/Huyện</th>
              <th scope="col">Địa chỉ</th>
              <th scope="col" className="num">
                Số học sinh
              </th>
              <th scope="col" className="num">
                Thí sinh
              </th>
              <th scope="col">Thao tác</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((school) => (
              <tr key={school.id}>
                <td>{school.name}</td>
                <td>{school.district_name}</td>
                <td>{school.address}</td>
                <td className="num">{formatNumber(school.pupil_count)}</td>
                <td className="num">{formatNumber(school.contestants)}</td>
                <td>
                  <div className="catalog-row-actions">
                    <Button variant="outline" onClick={() => setEditing(school)} aria-label={`Sửa ${school.name}`}>
                      Sửa
                    </Button>
                    <Button variant="outline" onClick={() => setMerging(school)} aria-label={`Gộp ${school.name} vào trường khác`}>
                      Gộp
                    </Button>
                    <Button variant="outline" onClick={() => setDeleting(school)} aria-label={`Xoá ${school.name}`}>
                      Xoá
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
            {list.data?.items.length === 0 && (
              <tr>
                <td colSpan={6}>Không có trường nào.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {list.data && <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={setPage} />}
      {editing && (
        <SchoolDialog
          school={editing === 'new' ? undefined : editing}
          districts={districtOptions}
          defaultDistrictId={districtId}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
      {merging && (
        <MergeSchoolDialog
          school={merging}
          districts={districtOptions}
          onClose={() => setMerging(null)}
          onMerged={() => {
            setMerging(null);
            onChanged();
          }}
        />
      )}
      {deleting && (
        <ConfirmDelete
          title={`Xoá trường ${deleting.name}?`}
          onDelete={async () => {
            await api.delete(`/admin/schools/${deleting.id}`);
            onChanged();
          }}
          onClose={() => setDeleting(null)}
        >
          <p>Chỉ xoá được trường chưa có thí sinh, tài khoản, giáo viên hay kết quả nào. Trường đang được dùng thì đổi tên hoặc gộp vào trường khác.</p>
        </ConfirmDelete>
      )}
    </section>
  );
}

type SchoolForm = z.input<typeof schoolInputSchema>;
const SCHOOL_FIELDS = ['district_id', 'name', 'address', 'pupil_count'] as const;

function SchoolDialog({
  school,
  districts,
  defaultDistrictId,
  onClose,
  onSaved,
}: {
  school?: AdminSchool;
  districts: AdminDistrict[];
  defaultDistrictId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const form = useForm<SchoolForm, unknown, z.output<typeof schoolInputSchema>>({
    resolver: zodResolver(schoolInputSchema),
    defaultValues: {
      district_id: school ? String(school.district_id) : defaultDistrictId,
      name: school?.name ?? '',
      address: school?.address ?? '',
      pupil_count: school ? String(school.pupil_count) : '',
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (school) await api.put(`/admin/schools/${school.id}`, values);
      else await api.post('/admin/schools', values);
      notify('success', 'Đã lưu trường');
      onSaved();
    } catch (error) {
      reportSaveError(error, form.setError, SCHOOL_FIELDS, 'Không lưu được', 12_000);
    }
  });
  return (
    <Modal title={school ? `Sửa trường ${school.name}` : 'Thêm trường'} onClose={onClose} className="catalog-modal">
      <form onSubmit={onSubmit} noValidate>
        <SelectField label="Quận/Huyện" {...form.register('district_id')} error={errors.district_id?.message}>
          <option value="">Chọn quận/huyện</option>
          {districts.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <TextField label="Tên trường" {...form.register('name')} error={errors.name?.message} />
        <TextField label="Địa chỉ" {...form.register('address')} error={errors.address?.message} />
        <TextField
          label="Số học sinh"
          inputMode="numeric"
          hint="Dùng cho giải tập thể trường."
          {...form.register('pupil_count')}
          error={errors.pupil_count?.message}
        />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} />
      </form>
    </Modal>
  );
}

function MergeSchoolDialog({ school, districts, onClose, onMerged }: { school: AdminSchool; districts: AdminDistrict[]; onClose: () => void; onMerged: () => void }) {
  const [districtId, setDistrictId] = useState(String(school.district_id));
  const usage = useAdminData<SchoolUsage>(`/admin/schools/${school.id}/usage`);
  const targets = useAdminData<Page<AdminSchool>>(`/admin/schools?${pageQuery(1, '', { district_id: districtId }, 200)}`);
  const form = useForm<z.input<typeof mergeInputSchema>, unknown, z.output<typeof mergeInputSchema>>({
    resolver: zodResolver(mergeInputSchema),
    defaultValues: { into_id: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await api.post(`/admin/schools/${school.id}/merge`, values);
      notify('success', 'Đã gộp trường', `${school.name} đã được gộp.`);
      onMerged();
    } catch (error) {
      reportSaveError(error, form.setError, ['into_id'], 'Không gộp được', 12_000);
    }
  });
  const moved = usage.data;
  return (
    <Modal title={`Gộp trường ${school.name}`} onClose={onClose} className="catalog-modal">
      <form onSubmit={onSubmit} noValidate>
        <p>Mọi thứ đang dùng trường này được chuyển sang trường bạn chọn, rồi trường này bị xoá khỏi danh mục.</p>
        <SelectField label="Quận/Huyện của trường gộp vào" value={districtId} onChange={(event) => setDistrictId(event.target.value)}>
          {districts.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Gộp vào trường" {...form.register('into_id')} error={form.formState.errors.into_id?.message}>
          <option value="">Chọn trường</option>
          {targets.data?.items
            .filter((s) => s.id !== school.id)
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
        </SelectField>
        <div className="catalog-merge-summary" aria-live="polite" aria-busy={usage.loading}>
          {moved ? (
            <p>
              Sẽ chuyển: {formatNumber(moved.contestants)} thí sinh, {formatNumber(moved.school_admins)} tài khoản quản trị trường,{' '}
              {formatNumber(moved.class_teachers)} giáo viên lớp (lớp mà trường kia đã có giáo viên thì giữ giáo viên của trường kia).
              {moved.results > 0 && ` Có ${formatNumber(moved.results)} dòng kết quả, giấy chứng nhận: cần tính lại kết quả sau khi gộp.`}
            </p>
          ) : (
            <p>Đang đếm dữ liệu của trường…</p>
          )}
        </div>
        <div className="modal-actions">
          <Button variant="outline" onClick={onClose}>
            Huỷ
          </Button>
          <Button type="submit" variant="danger" disabled={form.formState.isSubmitting || !moved}>
            Gộp trường
          </Button>
        </div>
      </form>
    </Modal>
  );
}
