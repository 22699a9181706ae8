// The teacher of each class of each school ('Giáo viên truyền lửa' prizes): the import, the list
// (paged on the server), add, edit and delete.
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
import { classTeacherInputSchema, type AdminClassTeacher, type AdminDistrict, type AdminSchool } from '../../../../shared/schemas/admin-catalog';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { PagedTable, RowActions } from '../../../components/ui/data-table';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';
import { ImportPanel } from '../kit/import-panel';
import { SearchBox } from './search-box';
import { useCrudState } from './use-crud-state';
import { useListQuery } from '../kit/use-list-query';
import { NamedOptions } from '../kit/district-schools';
import { DistrictFilter, useAllDistricts } from './schools-section';
import { useUnitWords } from '../../../lib/site';

const teacherPath = (t: AdminClassTeacher) => `/admin/class-teachers/${t.school_id}/${encodeURIComponent(t.class_name)}`;

export function TeachersSection() {
  const say = useUnitWords();
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const query = useListQuery({ district_id: '', q: '' });
  const { filters, filter } = query;
  const districts = useAllDistricts();
  const list = useApiData<Page<AdminClassTeacher>>(query.path('/admin/class-teachers'), version);
  const crud = useCrudState<AdminClassTeacher>(changed);
  const districtOptions = districts.data?.items ?? [];

  return (
    <>
      <ImportPanel
        title="Nhập giáo viên các lớp từ tệp"
        path="/admin/class-teachers/import"
        template="class-teachers"
        accept=".xlsx,.csv"
        hint={say('Tệp .xlsx hoặc .csv (UTF-8) theo mẫu: Quận/Huyện, Trường, Lớp, Giáo viên. Trường phải có sẵn trong danh mục.')}
        onImported={changed}
      />
      <section className="admin-card" aria-labelledby="teachers-title">
        <h2 id="teachers-title">Giáo viên các lớp</h2>
        <div className="admin-toolbar">
          <DistrictFilter districts={districtOptions} value={filters.district_id} onChange={filter('district_id')} />
          <SearchBox label="Tìm (giáo viên, lớp, trường)" onSearch={filter('q')} />
          <Button onClick={crud.add}>Thêm giáo viên</Button>
        </div>
        <PagedTable
          caption="Danh sách giáo viên các lớp"
          list={list}
          {...query.table}
          rowKey={(t) => `${t.school_id}-${t.class_name}`}
          empty="Chưa có giáo viên nào."
          columns={[
            { header: say('Quận/Huyện'), sortKey: 'district_name', cell: (t) => t.district_name },
            { header: 'Trường', sortKey: 'school_name', cell: (t) => t.school_name },
            { header: 'Lớp', sortKey: 'class_name', cell: (t) => t.class_name },
            { header: 'Giáo viên', sortKey: 'teacher_name', cell: (t) => t.teacher_name },
            {
              header: 'Thao tác',
              cell: (t) => (
                <RowActions>
                  <Button variant="outline" onClick={() => crud.edit(t)} aria-label={`Sửa giáo viên lớp ${t.class_name}, ${t.school_name}`}>
                    Sửa
                  </Button>
                  <Button variant="outline" onClick={() => crud.remove(t)} aria-label={`Xoá giáo viên lớp ${t.class_name}, ${t.school_name}`}>
                    Xoá
                  </Button>
                </RowActions>
              ),
            },
          ]}
        />
      </section>
      {crud.editing && (
        <TeacherDialog teacher={crud.editing === 'new' ? undefined : crud.editing} districts={districtOptions} onClose={crud.close} onSaved={crud.saved} />
      )}
      {crud.deleting && (
        <ConfirmDialog
          title={`Xoá giáo viên lớp ${crud.deleting.class_name}?`}
          onConfirm={() => api.delete(teacherPath(crud.deleting!)).then(changed)}
          onClose={crud.close}
        >
          <p>
            {crud.deleting.teacher_name}, lớp {crud.deleting.class_name}, {crud.deleting.school_name}.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function TeacherDialog({ teacher, districts, onClose, onSaved }: { teacher?: AdminClassTeacher; districts: AdminDistrict[]; onClose: () => void; onSaved: () => void }) {
  const say = useUnitWords();
  const [districtId, setDistrictId] = useState(teacher ? String(teacher.district_id) : '');
  const schools = useApiData<Page<AdminSchool>>(districtId ? `/admin/schools?${pageQuery(1, '', { district_id: districtId }, 200)}` : null);
  const form = useForm<z.input<typeof classTeacherInputSchema>, unknown, z.output<typeof classTeacherInputSchema>>({
    resolver: zodResolver(classTeacherInputSchema),
    defaultValues: { school_id: teacher ? String(teacher.school_id) : '', class_name: teacher?.class_name ?? '', teacher_name: teacher?.teacher_name ?? '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (teacher) await api.put(teacherPath(teacher), values);
      else await api.post('/admin/class-teachers', values);
      notify('success', 'Đã lưu giáo viên');
      onSaved();
    } catch (error) {
      reportSaveError(error, form.setError, ['school_id', 'class_name', 'teacher_name'], 'Không lưu được');
    }
  });
  return (
    <Modal title={teacher ? `Sửa giáo viên lớp ${teacher.class_name}` : 'Thêm giáo viên'} onClose={onClose} className="admin-wide-modal">
      <form onSubmit={onSubmit} noValidate>
        <SelectField
          label={say('Quận/Huyện')}
          value={districtId}
          onChange={(event) => {
            setDistrictId(event.target.value);
            form.setValue('school_id', '');
          }}
        >
          <option value="">{say('Chọn quận/huyện')}</option>
          <NamedOptions items={districts} />
        </SelectField>
        <SelectField label="Trường" {...form.register('school_id')} error={errors.school_id?.message}>
          <option value="">Chọn trường</option>
          <NamedOptions items={schools.data?.items} />
        </SelectField>
        <TextField label="Lớp" hint="Như tên lớp học sinh ghi khi đăng ký, ví dụ 3A." {...form.register('class_name')} error={errors.class_name?.message} />
        <TextField label="Giáo viên" {...form.register('teacher_name')} error={errors.teacher_name?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} />
      </form>
    </Modal>
  );
}
