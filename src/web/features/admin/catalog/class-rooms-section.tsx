// Class groups and their class rooms: lists, add, edit, delete what nothing uses, and merge a
// class room into another of the same group.
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
  classGroupInputSchema,
  classRoomInputSchema,
  mergeInputSchema,
  type AdminClassGroup,
  type AdminClassRoom,
  type ClassRoomUsage,
} from '../../../../shared/schemas/admin-catalog';
import { Pager } from '../ui/pager';
import { pageQuery, useAdminData } from '../ui/use-admin-data';
import { ConfirmDelete, SearchBox } from './catalog-ui';
import { formatNumber } from '../../../../shared/format';
import { DialogFormActions, reportSaveError } from '../ui/form-parts';

export function ClassRoomsSection() {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const groups = useAdminData<Page<AdminClassGroup>>('/admin/class-groups?per_page=200', version);
  return (
    <>
      <ClassGroupsCard groups={groups.data?.items} loading={groups.loading} error={groups.error} onChanged={changed} />
      <ClassRoomsCard groups={groups.data?.items ?? []} version={version} onChanged={changed} />
    </>
  );
}

// Class groups ----------------------------------------------------------------------------------
function ClassGroupsCard({ groups, loading, error, onChanged }: { groups?: AdminClassGroup[]; loading: boolean; error?: string; onChanged: () => void }) {
  const [editing, setEditing] = useState<AdminClassGroup | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminClassGroup | null>(null);
  return (
    <section className="admin-card" aria-labelledby="groups-title">
      <h2 id="groups-title">Nhóm lớp</h2>
      <div className="admin-actions">
        <Button onClick={() => setEditing('new')}>Thêm nhóm lớp</Button>
      </div>
      {error && <p role="alert">{error}</p>}
      <div className="admin-table-wrap" aria-busy={loading}>
        <table className="admin-table">
          <caption className="visually-hidden">Danh sách nhóm lớp</caption>
          <thead>
            <tr>
              <th scope="col">Thứ tự</th>
              <th scope="col">Nhóm</th>
              <th scope="col">Khối lớp</th>
              <th scope="col" className="num">
                Lớp
              </th>
              <th scope="col" className="num">
                Sách
              </th>
              <th scope="col" className="num">
                Thí sinh
              </th>
              <th scope="col">Thao tác</th>
            </tr>
          </thead>
          <tbody>
            {groups?.map((group) => (
              <tr key={group.id}>
                <td>{group.position}</td>
                <td>{group.name}</td>
                <td>{group.grades}</td>
                <td className="num">{formatNumber(group.class_rooms)}</td>
                <td className="num">{formatNumber(group.books)}</td>
                <td className="num">{formatNumber(group.contestants)}</td>
                <td>
                  <div className="catalog-row-actions">
                    <Button variant="outline" onClick={() => setEditing(group)} aria-label={`Sửa ${group.name}`}>
                      Sửa
                    </Button>
                    <Button variant="outline" onClick={() => setDeleting(group)} aria-label={`Xoá ${group.name}`}>
                      Xoá
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editing && (
        <ClassGroupDialog
          group={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
      {deleting && (
        <ConfirmDelete
          title={`Xoá nhóm lớp ${deleting.name}?`}
          onDelete={async () => {
            await api.delete(`/admin/class-groups/${deleting.id}`);
            onChanged();
          }}
          onClose={() => setDeleting(null)}
        >
          <p>Chỉ xoá được nhóm chưa có lớp, sách hay thí sinh nào.</p>
        </ConfirmDelete>
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

// Class rooms -----------------------------------------------------------------------------------
function ClassRoomsCard({ groups, version, onChanged }: { groups: AdminClassGroup[]; version: number; onChanged: () => void }) {
  const [groupId, setGroupId] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useAdminData<Page<AdminClassRoom>>(`/admin/class-rooms?${pageQuery(page, search, { class_group_id: groupId })}`, version);
  const [editing, setEditing] = useState<AdminClassRoom | 'new' | null>(null);
  const [merging, setMerging] = useState<AdminClassRoom | null>(null);
  const [deleting, setDeleting] = useState<AdminClassRoom | null>(null);
  return (
    <section className="admin-card" aria-labelledby="rooms-title">
      <h2 id="rooms-title">Lớp</h2>
      <div className="admin-toolbar">
        <SelectField
          label="Nhóm lớp"
          value={groupId}
          onChange={(event) => {
            setGroupId(event.target.value);
            setPage(1);
          }}
        >
          <option value="">Tất cả</option>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name} (lớp {g.grades})
            </option>
          ))}
        </SelectField>
        <SearchBox
          label="Tìm lớp"
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
        <Button onClick={() => setEditing('new')}>Thêm lớp</Button>
      </div>
      {list.error && <p role="alert">{list.error}</p>}
      <div className="admin-table-wrap" aria-busy={list.loading}>
        <table className="admin-table">
          <caption className="visually-hidden">Danh sách lớp</caption>
          <thead>
            <tr>
              <th scope="col">Lớp</th>
              <th scope="col">Nhóm</th>
              <th scope="col">Thứ tự</th>
              <th scope="col" className="num">
                Thí sinh
              </th>
              <th scope="col">Thao tác</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((room) => (
              <tr key={room.id}>
                <td>{room.name}</td>
                <td>{room.class_group_name}</td>
                <td>{room.position}</td>
                <td className="num">{formatNumber(room.contestants)}</td>
                <td>
                  <div className="catalog-row-actions">
                    <Button variant="outline" onClick={() => setEditing(room)} aria-label={`Sửa lớp ${room.name}`}>
                      Sửa
                    </Button>
                    <Button variant="outline" onClick={() => setMerging(room)} aria-label={`Gộp lớp ${room.name} vào lớp khác`}>
                      Gộp
                    </Button>
                    <Button variant="outline" onClick={() => setDeleting(room)} aria-label={`Xoá lớp ${room.name}`}>
                      Xoá
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
            {list.data?.items.length === 0 && (
              <tr>
                <td colSpan={5}>Không có lớp nào.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {list.data && <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={setPage} />}
      {editing && (
        <ClassRoomDialog
          room={editing === 'new' ? undefined : editing}
          groups={groups}
          defaultGroupId={groupId}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
      {merging && (
        <MergeClassRoomDialog
          room={merging}
          onClose={() => setMerging(null)}
          onMerged={() => {
            setMerging(null);
            onChanged();
          }}
        />
      )}
      {deleting && (
        <ConfirmDelete
          title={`Xoá lớp ${deleting.name}?`}
          onDelete={async () => {
            await api.delete(`/admin/class-rooms/${deleting.id}`);
            onChanged();
          }}
          onClose={() => setDeleting(null)}
        >
          <p>Chỉ xoá được lớp chưa có thí sinh. Lớp đang có thí sinh thì đổi tên hoặc gộp vào lớp khác cùng nhóm.</p>
        </ConfirmDelete>
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
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name} (lớp {g.grades})
            </option>
          ))}
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
  const usage = useAdminData<ClassRoomUsage>(`/admin/class-rooms/${room.id}/usage`);
  const targets = useAdminData<Page<AdminClassRoom>>(`/admin/class-rooms?${pageQuery(1, '', { class_group_id: room.class_group_id }, 200)}`);
  const form = useForm<z.input<typeof mergeInputSchema>, unknown, z.output<typeof mergeInputSchema>>({
    resolver: zodResolver(mergeInputSchema),
    defaultValues: { into_id: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await api.post(`/admin/class-rooms/${room.id}/merge`, values);
      notify('success', 'Đã gộp lớp', `Lớp ${room.name} đã được gộp.`);
      onMerged();
    } catch (error) {
      reportSaveError(error, form.setError, ['into_id'], 'Không gộp được', 12_000);
    }
  });
  const moved = usage.data;
  return (
    <Modal title={`Gộp lớp ${room.name}`} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <p>Thí sinh của lớp này chuyển sang lớp bạn chọn (cùng {room.class_group_name}), rồi lớp này bị xoá.</p>
        <SelectField label="Gộp vào lớp" {...form.register('into_id')} error={form.formState.errors.into_id?.message}>
          <option value="">Chọn lớp</option>
          {targets.data?.items
            .filter((r) => r.id !== room.id)
            .map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
        </SelectField>
        <div className="catalog-merge-summary" aria-live="polite" aria-busy={usage.loading}>
          {moved ? (
            <p>
              Sẽ chuyển: {formatNumber(moved.contestants)} thí sinh; {formatNumber(moved.class_teachers)} giáo viên đã nhập cho lớp {room.name} (ở các
              trường) chuyển sang tên lớp mới.
            </p>
          ) : (
            <p>Đang đếm thí sinh của lớp…</p>
          )}
        </div>
        <div className="modal-actions">
          <Button variant="outline" onClick={onClose}>
            Huỷ
          </Button>
          <Button type="submit" variant="danger" disabled={form.formState.isSubmitting || !moved}>
            Gộp lớp
          </Button>
        </div>
      </form>
    </Modal>
  );
}
