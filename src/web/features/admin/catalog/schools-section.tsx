// Districts and schools: the import, the lists (paged on the server), add, edit, delete what
// nothing uses, and merge a district or a school into another (counted first: merge-summary.tsx).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { pageQuery, useApiData } from '../../../lib/use-data';
import type { Page } from '../../../../shared/schemas/admin';
import {
  districtInputSchema,
  schoolInputSchema,
  type AdminDistrict,
  type AdminSchool,
  type DistrictMergePreview,
  type SchoolMergePreview,
} from '../../../../shared/schemas/admin-catalog';
import { formatNumber } from '../../../../shared/format';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { PagedTable, RowActions } from '../../../components/ui/data-table';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';
import { NamedOptions } from '../kit/district-schools';
import { ImportPanel } from '../kit/import-panel';
import { MergeDialog } from './merge-dialog';
import { SearchBox } from './search-box';
import { useCrudState } from './use-crud-state';
import { useListQuery } from '../kit/use-list-query';
import { DistrictMergeSummary, SchoolMergeSummary } from './merge-summary';
import { useUnitWords } from '../../../lib/site';

/** Every district, for the selects (a province has a few dozen). */
export function useAllDistricts(version = 0) {
  return useApiData<Page<AdminDistrict>>('/admin/districts?per_page=200', version);
}

export function SchoolsSection() {
  const say = useUnitWords();
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const districts = useAllDistricts(version);
  return (
    <>
      <ImportPanel
        title="Nhập danh sách trường từ tệp"
        path="/admin/schools/import"
        template="schools"
        accept=".xlsx,.csv"
        hint={say('Tệp .xlsx hoặc .csv (UTF-8) theo mẫu: Quận/Huyện, Trường, Địa chỉ, Số học sinh. Quận/huyện chưa có sẽ được thêm.')}
        onImported={changed}
      />
      <DistrictsCard districts={districts.data?.items ?? []} version={version} onChanged={changed} />
      <SchoolsCard districts={districts.data?.items ?? []} version={version} onChanged={changed} />
    </>
  );
}

// Districts -------------------------------------------------------------------------------------
function DistrictsCard({ districts, version, onChanged }: { districts: AdminDistrict[]; version: number; onChanged: () => void }) {
  const say = useUnitWords();
  const query = useListQuery({ q: '' });
  const list = useApiData<Page<AdminDistrict>>(query.path('/admin/districts', 20), version);
  const crud = useCrudState<AdminDistrict>(onChanged);
  return (
    <section className="admin-card" aria-labelledby="districts-title">
      <h2 id="districts-title">{say('Quận/Huyện')}</h2>
      <div className="admin-toolbar">
        <SearchBox label={say('Tìm quận/huyện')} onSearch={query.filter('q')} />
        <Button onClick={crud.add}>{say('Thêm quận/huyện')}</Button>
      </div>
      <PagedTable
        caption={say('Danh sách quận/huyện')}
        list={list}
        {...query.table}
        rowKey={(district) => district.id}
        columns={[
          { header: say('Quận/Huyện'), sortKey: 'name', cell: (district) => district.name },
          { header: 'Số trường', sortKey: 'schools', numeric: true, cell: (district) => formatNumber(district.schools) },
          {
            header: 'Thao tác',
            cell: (district) => (
              <RowActions>
                <Button variant="outline" onClick={() => crud.edit(district)} aria-label={`Đổi tên ${district.name}`}>
                  Đổi tên
                </Button>
                <Button variant="outline" onClick={() => crud.merge(district)} aria-label={say(`Gộp ${district.name} vào quận/huyện khác`)}>
                  Gộp
                </Button>
                <Button variant="outline" onClick={() => crud.remove(district)} aria-label={`Xoá ${district.name}`}>
                  Xoá
                </Button>
              </RowActions>
            ),
          },
        ]}
      />
      {crud.editing && <DistrictDialog district={crud.editing === 'new' ? undefined : crud.editing} onClose={crud.close} onSaved={crud.saved} />}
      {crud.merging && <MergeDistrictDialog district={crud.merging} districts={districts} onClose={crud.close} onMerged={crud.saved} />}
      {crud.deleting && (
        <ConfirmDialog
          title={say(`Xoá quận/huyện ${crud.deleting.name}?`)}
          onConfirm={() => api.delete(`/admin/districts/${crud.deleting!.id}`).then(onChanged)}
          onClose={crud.close}
        >
          <p>{say('Chỉ xoá được quận/huyện chưa có trường nào. Quận/huyện trùng với một quận/huyện khác (ví dụ “An Hoà” và “An Hòa”) thì gộp vào quận/huyện đó.')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function DistrictDialog({ district, onClose, onSaved }: { district?: AdminDistrict; onClose: () => void; onSaved: () => void }) {
  const say = useUnitWords();
  const form = useForm<z.input<typeof districtInputSchema>, unknown, z.output<typeof districtInputSchema>>({
    resolver: zodResolver(districtInputSchema),
    defaultValues: { name: district?.name ?? '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (district) await api.put(`/admin/districts/${district.id}`, values);
      else await api.post('/admin/districts', values);
      notify('success', say('Đã lưu quận/huyện'));
      onSaved();
    } catch (error) {
      reportSaveError(error, form.setError, ['name'], 'Không lưu được');
    }
  });
  return (
    <Modal title={district ? `Đổi tên ${district.name}` : say('Thêm quận/huyện')} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <TextField label={say('Tên quận/huyện')} {...form.register('name')} error={form.formState.errors.name?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} />
      </form>
    </Modal>
  );
}

// Schools ---------------------------------------------------------------------------------------
function SchoolsCard({ districts: districtOptions, version, onChanged }: { districts: AdminDistrict[]; version: number; onChanged: () => void }) {
  const say = useUnitWords();
  const query = useListQuery({ district_id: '', q: '' });
  const { filters, filter } = query;
  const list = useApiData<Page<AdminSchool>>(query.path('/admin/schools'), version);
  const crud = useCrudState<AdminSchool>(onChanged);

  return (
    <section className="admin-card" aria-labelledby="schools-title">
      <h2 id="schools-title">Trường</h2>
      <div className="admin-toolbar">
        <DistrictFilter districts={districtOptions} value={filters.district_id} onChange={filter('district_id')} />
        <SearchBox label="Tìm trường (tên, địa chỉ)" onSearch={filter('q')} />
        <Button onClick={crud.add}>Thêm trường</Button>
      </div>
      <PagedTable
        caption="Danh sách trường"
        list={list}
        {...query.table}
        rowKey={(school) => school.id}
        empty="Không có trường nào."
        columns={[
          {
            header: 'Trường',
            sortKey: 'name',
            cell: (school) => (
              <>
                {school.name}
                {school.closed_from && <span className="catalog-closed"> (đã đóng từ {school.closed_from})</span>}
              </>
            ),
          },
          { header: say('Quận/Huyện'), sortKey: 'district_name', cell: (school) => school.district_name },
          { header: 'Địa chỉ', sortKey: 'address', cell: (school) => school.address },
          { header: 'Số học sinh', sortKey: 'pupil_count', numeric: true, cell: (school) => formatNumber(school.pupil_count) },
          { header: 'Thí sinh', sortKey: 'contestants', numeric: true, cell: (school) => formatNumber(school.contestants) },
          {
            header: 'Thao tác',
            cell: (school) => (
              <RowActions>
                <Button variant="outline" onClick={() => crud.edit(school)} aria-label={`Sửa ${school.name}`}>
                  Sửa
                </Button>
                <Button variant="outline" onClick={() => crud.merge(school)} aria-label={`Gộp ${school.name} vào trường khác`}>
                  Gộp
                </Button>
                <Button variant="outline" onClick={() => crud.remove(school)} aria-label={`Xoá ${school.name}`}>
                  Xoá
                </Button>
              </RowActions>
            ),
          },
        ]}
      />
      {crud.editing && (
        <SchoolDialog
          school={crud.editing === 'new' ? undefined : crud.editing}
          districts={districtOptions}
          defaultDistrictId={filters.district_id}
          onClose={crud.close}
          onSaved={crud.saved}
        />
      )}
      {crud.merging && <MergeSchoolDialog school={crud.merging} districts={districtOptions} onClose={crud.close} onMerged={crud.saved} />}
      {crud.deleting && (
        <ConfirmDialog
          title={`Xoá trường ${crud.deleting.name}?`}
          onConfirm={() => api.delete(`/admin/schools/${crud.deleting!.id}`).then(onChanged)}
          onClose={crud.close}
        >
          <p>Chỉ xoá được trường chưa có thí sinh, tài khoản, giáo viên hay kết quả nào. Trường đang được dùng thì đổi tên hoặc gộp vào trường khác.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** "Quận/Huyện" over a list: every district, or "Tất cả". */
export function DistrictFilter({ districts, value, onChange }: { districts: AdminDistrict[]; value: string; onChange: (id: string) => void }) {
  const say = useUnitWords();
  return (
    <SelectField label={say('Quận/Huyện')} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">Tất cả</option>
      <NamedOptions items={districts} />
    </SelectField>
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
  const say = useUnitWords();
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
    <Modal title={school ? `Sửa trường ${school.name}` : 'Thêm trường'} onClose={onClose} className="admin-wide-modal">
      <form onSubmit={onSubmit} noValidate>
        <SelectField label={say('Quận/Huyện')} {...form.register('district_id')} error={errors.district_id?.message}>
          <option value="">{say('Chọn quận/huyện')}</option>
          <NamedOptions items={districts} />
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
  const say = useUnitWords();
  const [districtId, setDistrictId] = useState(String(school.district_id));
  const [intoId, setIntoId] = useState('');
  const targets = useApiData<Page<AdminSchool>>(`/admin/schools?${pageQuery(1, '', { district_id: districtId }, 200)}`);
  const preview = useApiData<SchoolMergePreview>(intoId ? `/admin/schools/${school.id}/merge?into_id=${intoId}` : null);
  const counted = preview.data && String(preview.data.into.id) === intoId ? preview.data : undefined;
  return (
    <MergeDialog
      title={`Gộp trường ${school.name}`}
      path={`/admin/schools/${school.id}`}
      className="admin-wide-modal"
      intro="Mọi thứ đang dùng trường này được chuyển sang trường bạn chọn (trường được giữ lại), rồi trường này bị xoá khỏi danh mục."
      before={
        <SelectField
          label={say('Quận/Huyện của trường gộp vào')}
          value={districtId}
          onChange={(event) => {
            setDistrictId(event.target.value);
            setIntoId('');
          }}
        >
          <NamedOptions items={districts} />
        </SelectField>
      }
      targetLabel="Gộp vào trường"
      targetPlaceholder="Chọn trường"
      targets={targets.data?.items.filter((s) => s.id !== school.id) ?? []}
      onTargetChange={setIntoId}
      summary={!intoId ? <p>Chọn trường gộp vào để xem những gì sẽ chuyển.</p> : preview.message && !counted ? <p role="alert">{preview.message}</p> : counted && <SchoolMergeSummary preview={counted} />}
      refusal={counted?.refusal}
      counting="Đang đếm những gì sẽ chuyển…"
      submitLabel="Gộp trường"
      done={['Đã gộp trường', `${school.name} đã được gộp.`]}
      onClose={onClose}
      onMerged={onMerged}
    />
  );
}

function MergeDistrictDialog({ district, districts, onClose, onMerged }: { district: AdminDistrict; districts: AdminDistrict[]; onClose: () => void; onMerged: () => void }) {
  const say = useUnitWords();
  const [intoId, setIntoId] = useState('');
  const preview = useApiData<DistrictMergePreview>(intoId ? `/admin/districts/${district.id}/merge?into_id=${intoId}` : null);
  const counted = preview.data && String(preview.data.into.id) === intoId ? preview.data : undefined;
  return (
    <MergeDialog
      title={say(`Gộp quận/huyện ${district.name}`)}
      path={`/admin/districts/${district.id}`}
      className="admin-wide-modal"
      intro={say('Các trường của quận/huyện này chuyển sang quận/huyện bạn chọn (được giữ lại); trường trùng tên với một trường ở đó (kể cả khác cách bỏ dấu, như “Hoà” và “Hòa”) được gộp vào trường đó. Rồi quận/huyện này bị xoá khỏi danh mục.')}
      targetLabel={say('Gộp vào quận/huyện')}
      targetPlaceholder={say('Chọn quận/huyện')}
      targets={districts.filter((d) => d.id !== district.id)}
      onTargetChange={setIntoId}
      summary={!intoId ? <p>{say('Chọn quận/huyện gộp vào để xem những gì sẽ chuyển.')}</p> : preview.message && !counted ? <p role="alert">{preview.message}</p> : counted && <DistrictMergeSummary preview={counted} />}
      refusal={counted?.refusal}
      counting="Đang đếm những gì sẽ chuyển…"
      submitLabel={say('Gộp quận/huyện')}
      done={[say('Đã gộp quận/huyện'), `${district.name} đã được gộp.`]}
      onClose={onClose}
      onMerged={onMerged}
    />
  );
}
