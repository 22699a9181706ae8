// The teacher of each class of each school ('Giáo viên truyền lửa' prizes): the import, the list
// (paged on the server), add, edit and delete.
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
import { classTeacherInputSchema, type AdminClassTeacher, type AdminDistrict, type AdminSchool } from '../../../../shared/schemas/admin-catalog';
import { ImportPanel } from '../ui/import-panel';
import { Pager } from '../ui/pager';
import { pageQuery, useAdminData } from '../ui/use-admin-data';
import { ConfirmDelete, SearchBox } from './catalog-ui';
import { useAllDistricts } from './schools-section';
import { DialogFormActions, reportSaveError } from '../ui/form-parts';

const teacherPath = (t: AdminClassTeacher) => `/admin/class-teachers/${t.school_id}/${encodeURIComponent(t.class_name)}`;

export function TeachersSection() {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const [districtId, setDistrictId] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const districts = useAllDistricts();
  const list = useAdminData<Page<AdminClassTeacher>>(`/admin/class-teachers?${pageQuery(page, search, { district_id: districtId })}`, version);
  const [editing, setEditing] = useState<AdminClassTeacher | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminClassTeacher | null>(null);
  const districtOptions = districts.data?.items ?? [];

  return (
    <>
      <ImportPanel
        title="Nhập giáo viên các lớp từ tệp"
        path="/admin/class-teachers/import"
        template="class-teachers"
        accept=".xlsx,.csv"
        hint="Tệp .xlsx hoặc .csv (UTF-8) theo mẫu: Quận/Huyện, Trường, Lớp, Giáo viên. Trường phải có sẵn trong danh mục."
        onImported={changed}
      />
      <section className="admin-card" aria-labelledby="teachers-title">
        <h2 id="teachers-title">Giáo viên các lớp</h2>
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
            label="Tìm (giáo viên, lớp, trường)"
            onSearch={(q) => {
              setSearch(q);
              setPage(1);
            }}
          />
          <Button onClick={() => setEditing('new')}>Thêm giáo viên</Button>
        </div>
        {list.error && <p role="alert">{list.error}</p>}
        <div className="admin-table-wrap" aria-busy={list.loading}>
          <table className="admin-table">
            <caption className="visually-hidden">Danh sách giáo viên các lớp</caption>
            <thead>
              <tr>
                <th scope="col">Quận/Huyện</th>
                <th scope="col">Trường</th>
                <th scope="col">Lớp</th>
                <th scope="col">Giáo viên</th>
                <th scope="col">Thao tác</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.items.map((t) => (
                <tr key={`${t.school_id}-${t.class_name}`}>
                  <td>{t.district_name}</td>
                  <td>{t.school_name}</td>
                  <td>{t.class_name}</td>
                  <td>{t.teacher_name}</td>
                  <td>
                    <div className="catalog-row-actions">
                      <Button variant="outline" onClick={() => setEditing(t)} aria-label={`Sửa giáo viên lớp ${t.class_name}, ${t.school_name}`}>
                        Sửa
                      </Button>
                      <Button variant="outline" onClick={() => setDeleting(t)} aria-label={`Xoá giáo viên lớp ${t.class_name}, ${t.school_name}`}>
                        Xoá
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
              {list.data?.items.length === 0 && (
                <tr>
                  <td colSpan={5}>Chưa có giáo viên nào.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {list.data && <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={setPage} />}
      </section>
      {editing && (
        <TeacherDialog
          teacher={editing === 'new' ? undefined : editing}
          districts={districtOptions}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            changed();
          }}
        />
      )}
      {deleting && (
        <ConfirmDelete
          title={`Xoá giáo viên lớp ${deleting.class_name}?`}
          onDelete={async () => {
            await api.delete(teacherPath(deleting));
            changed();
          }}
          onClose={() => setDeleting(null)}
        >
          <p>
            {deleting.teacher_name}, lớp {deleting.class_name}, {deleting.school_name}.
          </p>
        </ConfirmDelete>
      )}
    </>
  );
}

function TeacherDialog({ teacher, districts, onClose, onSaved }: { teacher?: AdminClassTeacher; districts: AdminDistrict[]; onClose: () => void; onSaved: () => void }) {
  const [districtId, setDistrictId] = useState(teacher ? String(teacher.district_id) : '');
  const schools = useAdminData<Page<AdminSchool>>(districtId ? `/admin/schools?${pageQuery(1, '', { district_id: districtId }, 200)}` : null);
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
    <Modal title={teacher ? `Sửa giáo viên lớp ${teacher.class_name}` : 'Thêm giáo viên'} onClose={onClose} className="catalog-modal">
      <form onSubmit={onSubmit} noValidate>
        <SelectField
          label="Quận/Huyện"
          value={districtId}
          onChange={(event) => {
            setDistrictId(event.target.value);
            form.setValue('school_id', '');
          }}
        >
          <option value="">Chọn quận/huyện</option>
          {districts.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Trường" {...form.register('school_id')} error={errors.school_id?.message}>
          <option value="">Chọn trường</option>
          {schools.data?.items.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectField>
        <TextField label="Lớp" hint="Như tên lớp học sinh ghi khi đăng ký, ví dụ 3A." {...form.register('class_name')} error={errors.class_name?.message} />
        <TextField label="Giáo viên" {...form.register('teacher_name')} error={errors.teacher_name?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} />
      </form>
    </Modal>
  );
}
