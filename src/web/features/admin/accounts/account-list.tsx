// The accounts list: search by phone (any part of it), name or school (accents ignored), filter by role, paged on the server.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { formatDate } from '../../../../shared/format';
import type { Page } from '../../../../shared/schemas/admin';
import { roleLabels, type AccountSummary } from '../../../../shared/schemas/admin-accounts';
import { roleSchema } from '../../../../shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { usePageTitle } from '../../../lib/use-page-title';
import { PagedTable } from '../../../components/ui/data-table';
import { useApiData } from '../../../lib/use-data';
import { useListQuery } from '../kit/use-list-query';

const PER_PAGE = 50;
export const roleLabel = (role: AccountSummary['role']) => roleLabels[role].charAt(0).toLocaleUpperCase('vi') + roleLabels[role].slice(1);

export function AccountList() {
  usePageTitle('Tài khoản');
  const query = useListQuery({ q: '', role: '' });
  const [draft, setDraft] = useState(query.filters);
  const list = useApiData<Page<AccountSummary>>(query.path('/admin/accounts', PER_PAGE));

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    query.search(draft);
  };

  return (
    <section className="admin-page">
      <h1>Tài khoản</h1>
      <div className="admin-actions">
        <Link href="/quan-tri-truong-moi" className="btn btn-accent">
          Tạo tài khoản quản trị trường
        </Link>
        <Link href="/xem-so-lieu-moi" className="btn btn-outline">
          Tạo tài khoản xem số liệu
        </Link>
      </div>
      <form className="admin-toolbar" role="search" aria-label="Tìm tài khoản" onSubmit={onSearch}>
        <TextField
          label="Số điện thoại hoặc họ tên"
          inputMode="search"
          value={draft.q}
          onChange={(event) => setDraft({ ...draft, q: event.target.value })}
          hint="Một phần số điện thoại là đủ, ví dụ 4567. Họ tên hoặc tên trường gõ không dấu cũng tìm được."
        />
        <SelectField label="Loại tài khoản" value={draft.role} onChange={(event) => setDraft({ ...draft, role: event.target.value })}>
          <option value="">Tất cả</option>
          {roleSchema.options.map((role) => (
            <option key={role} value={role}>
              {roleLabel(role)}
            </option>
          ))}
        </SelectField>
        <Button type="submit">Tìm</Button>
      </form>
      <PagedTable
        caption="Danh sách tài khoản"
        list={list}
        {...query.table}
        rowKey={(account) => account.id}
        empty="Không có tài khoản nào phù hợp."
        columns={[
          { header: 'Số điện thoại', sortKey: 'phone', cell: (account) => <Link href={`/${account.id}`}>{account.phone}</Link> },
          { header: 'Họ tên', sortKey: 'name', cell: (account) => account.name },
          { header: 'Loại', sortKey: 'role', cell: (account) => roleLabel(account.role) },
          { header: 'Trường', sortKey: 'school_name', cell: (account) => account.school_name ?? '' },
          { header: 'Phạm vi', cell: (account) => account.scope ?? '' },
          { header: 'Ngày tạo', sortKey: 'created_at', cell: (account) => formatDate(account.created_at) },
          { header: 'Trạng thái', sortKey: 'locked_at', cell: (account) => (account.locked_at ? <span className="account-state-locked">Đã khoá</span> : 'Hoạt động') },
        ]}
      />
    </section>
  );
}
