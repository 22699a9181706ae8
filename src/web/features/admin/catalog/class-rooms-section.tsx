// Class groups and their class rooms: lists, add, edit, delete what nothing uses, and merge a
// class room into another of the same group.
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
  classGroupInputSchema,
  classRoomInputSchema,
  type AdminClassGroup,
  type AdminClassRoom,
  type ClassRoomUsage,
} from '../../../../shared/schemas/admin-catalog';
import { formatNumber } from '../../../../shared/format';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { DataTable, PagedTable, RowActions } from '../../../components/ui/data-table';
import { DialogFormActions, reportSaveError } from '../kit/form-parts';
import { MergeDialog } from './merge-dialog';
import { SearchBox } from './search-box';
import { useCrudState } from './use-crud-state';
import { useListQuery } from '../kit/use-list-query';
import { ImportPanel } from '../kit/import-panel';

export function ClassRoomsSection() {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const groups = useApiData<Page<AdminClassGroup>>('/admin/class-groups?per_page=200', version);
  return (
    <>
      <ClassGroupsCard version={version} onChanged={changed} />
      <ImportPanel
        title="Nhập danh sách lớp từ tệp"
        path="/admin/class-rooms/import"
        template="class-rooms"
        accept=".xlsx,.csv"
        hint='Tệp .xlsx hoặc .csv (UTF-8) theo mẫu: Nhóm lớp (tên nhóm, hoặc khối lớp như "3"), Lớp. Tên lớp được viết thống nhất (" 3c " thành "3C"); lớp đã có được giữ nguyên.'
        onImported={changed}
      />
      <ClassRoomsCard groups={groups.data?.items ?? []} version={version} onChanged={changed} />
    </>
  );
}

// Class groups ----------------------------------------------------------------------------------
/** The class groups in the order the table asks for (the selects keep the server's own). */
function ClassGroupsCard({ version, onChanged }: { version: number; onChanged: () => void }) {
  const query = useListQuery({});
  const groups = useApiData<Page<AdminClassGroup>>(query.path('/admin/class-groups', 200), version);
  const crud = useCrudState<AdminClassGroup>(onChanged);
  return (
    <section className="admin-card" aria-labelledby="groups-title">
      <h2 id="groups-title">Nhóm lớp</h2>
      <div className="admin-actions">
        <Button onClick={crud.add}>Thêm nhóm lớp</Button>
      </div>
      <DataTable
        caption="Danh sách nhóm lớp"
        rows={groups.data?.items}
        loading={groups.loading}
        error={groups.message}
        sort={query.sort}
        onSort={query.table.onSort}
        rowKey={(group) => group.id}
        columns={[
          { header: 'Thứ tự', sortKey: 'position', cell: (group) => group.position },
          { header: 'Nhóm', sortKey: 'name', cell: (group) => group.name },
          { header: 'Khối lớp', sortKey: 'grades', cell: (group) => group.grades },
          { header: 'Lớp', sortKey: 'class_rooms', numeric: true, cell: (group) => formatNumber(group.class_rooms) },
          { header: 'Sách', sortKey: 'books', numeric: true, cell: (group) => formatNumber(group.books) },
          { header: 'Thí sinh', sortKey: 'contestants', numeric: true, cell: (group) => formatNumber(group.contestants) },
          {
            header: 'Thao tác',
            cell: (group) => (
              <RowActions>
                <Button variant="outline" onClick={() => crud.edit(group)} aria-label={`Sửa ${group.name}`}>
                  Sửa
                </Button>
                <Button variant="outline" onClick={() => crud.remove(group)} aria-label={`Xoá ${group.name}`}>
                  Xoá
                </Button>
              </RowActions>
            ),
          },
        ]}
      />
      {crud.editing && <ClassGroupDialog group={crud.editing === 'new' ? undefined : crud.editing} onClose={crud.close} onSaved={crud.saved} />}
      {crud.deleting && (
        <ConfirmDialog
          title={`Xoá nhóm lớp ${crud.deleting.name}?`}
          onConfirm={() => api.delete(`/admin/class-groups/${crud.deleting!.id}`).then(onChanged)}
          onClose={crud.close}
        >
          <p>Chỉ xoá được nhóm chưa có lớp, sách hay thí sinh nào.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function ClassGroupDialog({ group, onClose, onSaved }: { group?: AdminClassGroup; onClose: () => void; onSaved: () => void }) {
  const form = useForm<z.input<typeof classGroupInputSchema>, unknown, z.output<typeof classGroupInputSchema>>({
    resolver: zodResolver(classGroupInputSchema),
    defaultValues: { name: group?.name ?? '', grades: group?.grades ?? '', position: group ? String(group.position) : '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (group) await api.put(`/admin/class-groups/${group.id}`, values);
      else await api.post('/admin/class-groups', values);
      notify('success', 'Đã lưu nhóm lớp');
      onSaved();
    } catch (error) {
      reportSaveError(error, form.setError, ['name', 'grades', 'position'], 'Không lưu được');
    }
  });
  return (
    <Modal title={group ? `Sửa ${group.name}` : 'Thêm nhóm lớp'} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Tên nhóm" {...form.register('name')} error={errors.name?.message} />
        <TextField label="Khối lớp" hint="Ví dụ 1-2, 3-4, 5." {...form.register('grades')} error={errors.grades?.message} />
        <TextField label="Thứ tự" inputMode="numeric" {...form.register('position')} error={errors.position?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} />
      </form>
    </Modal>
  );
}

function GroupOptions({ groups }: { groups: AdminClassGroup[] }) {
  return groups.map((g) => (
    <option key={g.id} value={g.id}>
      {g.name} (lớp {g.grades})
    </option>
  ));
}

// Class rooms -----------------------------------------------------------------------------------
function ClassRoomsCard({ groups, version, onChanged }: { groups: AdminClassGroup[]; version: number; onChanged: () => void }) {
  const query = useListQuery({ class_group_id: '', q: '' });
  const { filters, filter } = query;
  const list = useApiData<Page<AdminClassRoom>>(query.path('/admin/class-rooms'), version);
  const crud = useCrudState<AdminClassRoom>(onChanged);
  return (
    <section className="admin-card" aria-labelledby="rooms-title">
      <h2 id="rooms-title">Lớp</h2>
      <div className="admin-toolbar">
        <SelectField label="Nhóm lớp" value={filters.class_group_id} onChange={(event) => filter('class_group_id')(event.target.value)}>
          <option value="">Tất cả</option>
          <GroupOptions groups={groups} />
        </SelectField>
        <SearchBox label="Tìm lớp" onSearch={filter('q')} />
        <Button onClick={crud.add}>Thêm lớp</Button>
      </div>
      <PagedTable
        caption="Danh sách lớp"
        list={list}
        {...query.table}
        rowKey={(room) => room.id}
        empty="Không có lớp nào."
        columns={[
          { header: 'Lớp', sortKey: 'name', cell: (room) => room.name },
          { header: 'Nhóm', sortKey: 'class_group_name', cell: (room) => room.class_group_name },
          { header: 'Thứ tự', sortKey: 'position', cell: (room) => room.position },
          { header: 'Thí sinh', sortKey: 'contestants', numeric: true, cell: (room) => formatNumber(room.contestants) },
          {
            header: 'Thao tác',
            cell: (room) => (
              <RowActions>
                <Button variant="outline" onClick={() => crud.edit(room)} aria-label={`Sửa lớp ${room.name}`}>
                  Sửa
                </Button>
                <Button variant="outline" onClick={() => crud.merge(room)} aria-label={`Gộp lớp ${room.name} vào lớp khác`}>
                  Gộp
                </Button>
                <Button variant="outline" onClick={() => crud.remove(room)} aria-label={`Xoá lớp ${room.name}`}>
                  Xoá
                </Button>
              </RowActions>
            ),
          },
        ]}
      />
      {crud.editing && (
        <ClassRoomDialog
          room={crud.editing === 'new' ? undefined : crud.editing}
          groups={groups}
          defaultGroupId={filters.class_group_id}
          onClose={crud.close}
          onSaved={crud.saved}
        />
      )}
      {crud.merging && <MergeClassRoomDialog room={crud.merging} onClose={crud.close} onMerged={crud.saved} />}
      {crud.deleting && (
        <ConfirmDialog
          title={`Xoá lớp ${crud.deleting.name}?`}
          onConfirm={() => api.delete(`/admin/class-rooms/${crud.deleting!.id}`).then(onChanged)}
          onClose={crud.close}
        >
          <p>Chỉ xoá được lớp chưa có thí sinh. Lớp đang có thí sinh thì đổi tên hoặc gộp vào lớp khác cùng nhóm.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function ClassRoomDialog({
  room,
  groups,
  defaultGroupId,
  onClose,
  onSaved,
}: {
  room?: AdminClassRoom;
  groups: AdminClassGroup[];
  defaultGroupId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const form = useForm<z.input<typeof classRoomInputSchema>, unknown, z.output<typeof classRoomInputSchema>>({
    resolver: zodResolver(classRoomInputSchema),
    defaultValues: { class_group_id: room ? String(room.class_group_id) : defaultGroupId, name: room?.name ?? '', position: room ? String(room.position) : '0' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (room) await api.put(`/admin/class-rooms/${room.id}`, values);
      else await api.post('/admin/class-rooms', values);
      notify('success', 'Đã lưu lớp');
      onSaved();
    } catch (error) {
      reportSaveError(error, form.setError, ['class_group_id', 'name', 'position'], 'Không lưu được', 12_000);
    }
  });
  return (
    <Modal title={room ? `Sửa lớp ${room.name}` : 'Thêm lớp'} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <SelectField label="Nhóm lớp" {...form.register('class_group_id')} error={errors.class_group_id?.message}>
          <option value="">Chọn nhóm lớp</option>
          <GroupOptions groups={groups} />
        </SelectField>
        <TextField
          label="Tên lớp"
          hint={room ? 'Đổi tên lớp thì giáo viên đã nhập cho lớp tên cũ cũng chuyển sang tên mới.' : undefined}
          {...form.register('name')}
          error={errors.name?.message}
        />
        <TextField label="Thứ tự" inputMode="numeric" {...form.register('position')} error={errors.position?.message} />
        <DialogFormActions onCancel={onClose} busy={form.formState.isSubmitting} />
      </form>
    </Modal>
  );
}

function MergeClassRoomDialog({ room, onClose, onMerged }: { room: AdminClassRoom; onClose: () => void; onMerged: () => void }) {
  const usage = useApiData<ClassRoomUsage>(`/admin/class-rooms/${room.id}/usage`);
  const targets = useApiData<Page<AdminClassRoom>>(`/admin/class-rooms?${pageQuery(1, '', { class_group_id: room.class_group_id }, 200)}`);
  const moved = usage.data;
  return (
    <MergeDialog
      title={`Gộp lớp ${room.name}`}
      path={`/admin/class-rooms/${room.id}`}
      intro={`Thí sinh của lớp này chuyển sang lớp bạn chọn (cùng ${room.class_group_name}), rồi lớp này bị xoá.`}
      targetLabel="Gộp vào lớp"
      targetPlaceholder="Chọn lớp"
      targets={targets.data?.items.filter((r) => r.id !== room.id) ?? []}
      summary={
        moved && (
          <p>
            Sẽ chuyển: {formatNumber(moved.contestants)} thí sinh; {formatNumber(moved.class_teachers)} giáo viên đã nhập cho lớp {room.name} (ở các
            trường) chuyển sang tên lớp mới.
          </p>
        )
      }
      counting="Đang đếm thí sinh của lớp…"
      submitLabel="Gộp lớp"
      done={['Đã gộp lớp', `Lớp ${room.name} đã được gộp.`]}
      onClose={onClose}
      onMerged={onMerged}
    />
  );
}
