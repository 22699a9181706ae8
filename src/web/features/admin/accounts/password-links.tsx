// One-time set-password links to hand to their owners (they were also sent by SMS): each with a
// copy button, and all of them at once for a message or a spreadsheet.
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/notices';
import type { PasswordLink } from '../../../../shared/schemas/admin-accounts';
import { DataTable } from '../../../components/ui/data-table';
import { api } from '../../../lib/api-client';

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify('success', 'Đã sao chép', what);
  } catch {
    notify('error', 'Không sao chép được', 'Hãy chọn liên kết rồi bấm Ctrl+C.');
  }
}

export function PasswordLinks({ links, smsFailed = [] }: { links: PasswordLink[]; smsFailed?: string[] }) {
  if (links.length === 0) return null;
  return (
    <div className="password-links">
      <p>
        Liên kết đặt mật khẩu (dùng một lần, hết hạn sau 72 giờ) đã được gửi qua SMS
        {smsFailed.length > 0 ? `, trừ ${smsFailed.length} số không gửi được (đánh dấu bên dưới): hãy gửi cho họ bằng cách khác` : ''}. Bạn cũng có thể
        sao chép để gửi cho từng người.
      </p>
      {links.length > 1 && (
        <Button variant="outline" onClick={() => void copy(links.map((l) => `${l.phone}\t${l.url}`).join('\n'), `${links.length} liên kết`)}>
          Sao chép tất cả ({links.length})
        </Button>
      )}
      <DataTable
        caption="Liên kết đặt mật khẩu"
        rows={links}
        rowKey={(link) => link.phone}
        columns={[
          {
            header: 'Số điện thoại',
            cell: (link) => (
              <>
                {link.phone}
                {smsFailed.includes(link.phone) && <strong className="sms-failed"> (chưa gửi được SMS)</strong>}
              </>
            ),
          },
          { header: 'Liên kết', className: 'password-link-url', cell: (link) => <code>{link.url}</code> },
          {
            header: <span className="visually-hidden">Sao chép</span>,
            cell: (link) => (
              <Button variant="outline" aria-label={`Sao chép liên kết của ${link.phone}`} onClick={() => void copy(link.url, link.phone)}>
                Sao chép
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}

/** An account just created by a form: its link, and whether the SMS with it went. */
export interface CreatedAccount {
  link: PasswordLink;
  smsSent: boolean;
}

/** POSTs a new account (a school administrator, a viewer) and gives its link as the form shows it. */
export async function postNewAccount(path: string, values: unknown): Promise<CreatedAccount> {
  const answer = await api.post<{ data: PasswordLink & { sms_sent: boolean } }>(path, values);
  return { link: { phone: answer.data.phone, url: answer.data.url }, smsSent: answer.data.sms_sent };
}

/** The link of the account a form just created, under the form. */
export function CreatedAccountLink({ created }: { created: CreatedAccount | null }) {
  if (!created) return null;
  return (
    <div role="status">
      <PasswordLinks links={[created.link]} smsFailed={created.smsSent ? [] : [created.link.phone]} />
    </div>
  );
}
