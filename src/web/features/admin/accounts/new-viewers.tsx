// The education offices' viewers (issue 41): one by one (phone, name, the whole province or some
// units) or from a spreadsheet. As for school administrators, each new account gets a one-time
// link to set its password, sent by SMS and shown here to copy.
import { useId, useState } from 'react';
import { useForm, type DefaultValues } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { Link } from 'wouter';
import { formatNumber } from '../../../../shared/format';
import type { PasswordLink } from '../../../../shared/schemas/admin-accounts';
import { createViewerSchema, VIEWER_UNITS_MAX, viewerMessages } from '../../../../shared/schemas/viewers';
import { foldText } from '../../../../shared/vietnamese';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { errorMessage, showServerFieldErrors } from '../../../lib/server-errors';
import { useUnitWords } from '../../../lib/site';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDistrictSchools, type NamedItem } from '../kit/district-schools';
import { ImportPanel } from '../kit/import-panel';
import { CreatedAccountLink, PasswordLinks, postNewAccount, type CreatedAccount } from './password-links';

type FormInput = z.input<typeof createViewerSchema>;
type FormOutput = z.output<typeof createViewerSchema>;
/** No scope chosen: the organiser picks one (the schema's message otherwise). */
const EMPTY: DefaultValues<FormInput> = { phone: '', name: '', district_ids: [] };

export function NewViewersPage() {
  const say = useUnitWords();
  usePageTitle('Tạo tài khoản xem số liệu');
  return (
    <section className="admin-page">
      <p>
        <Link href="/">← Danh sách tài khoản</Link>
      </p>
      <h1>Tạo tài khoản xem số liệu</h1>
      <p>
        Tài khoản xem số liệu dành cho Sở Giáo dục và Đào tạo (toàn tỉnh) và các phòng, đơn vị ({say('quận/huyện')}): chỉ xem số liệu tham gia và kết quả trong phạm
        vi của mình, không sửa được gì, không thấy số điện thoại phụ huynh. Mỗi tài khoản mới nhận một liên kết dùng một lần để tự đặt mật khẩu (hết hạn sau 72
        giờ), gửi qua SMS và hiện ở đây để bạn sao chép.
      </p>
      <ViewerForm />
      <ImportPanel
        title="Nhập danh sách từ tệp Excel"
        path="/admin/viewers/import"
        template="viewers"
        accept=".xlsx,.csv"
        hint={`Tệp .xlsx hoặc .csv (UTF-8). Cột Đơn vị: tên các ${say('quận/huyện')} cách nhau bởi dấu “;” (không phân biệt dấu, chữ hoa), để trống nếu xem toàn tỉnh. Số đã là tài khoản xem số liệu sẽ được cập nhật nếu tên hoặc phạm vi khác.`}
        renderResult={(data) => <PasswordLinks links={(data.links as PasswordLink[]) ?? []} smsFailed={(data.sms_failed as string[]) ?? []} />}
      />
    </section>
  );
}

function ViewerForm() {
  const say = useUnitWords();
  const [created, setCreated] = useState<CreatedAccount | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(createViewerSchema), defaultValues: EMPTY });
  const { register, handleSubmit, formState, watch, setValue } = form;
  const { districts } = useDistrictSchools('');
  const kind = watch('kind');
  const chosen = (watch('district_ids') ?? []).map(Number);
  const kindError = formState.errors.kind?.message;
  const kindErrorId = useId();

  const choose = (ids: number[]) => setValue('district_ids', ids, { shouldValidate: formState.isSubmitted });
  // A province viewer has no units: the ones ticked before are let go.
  const kindField = register('kind', { onChange: (event: { target: { value: string } }) => event.target.value === 'province' && choose([]) });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const account = await postNewAccount('/admin/viewers', values);
      setCreated(account);
      notify('success', 'Đã tạo tài khoản', account.link.phone);
      form.reset(EMPTY);
    } catch (error) {
      if (showServerFieldErrors(error, form.setError, ['phone', 'name', 'kind', 'district_ids']) === 0) {
        notify('error', 'Không tạo được tài khoản', errorMessage(error));
      }
    }
  });

  return (
    <div className="admin-card">
      <h2>Tạo từng tài khoản</h2>
      <form className="admin-form" onSubmit={onSubmit} noValidate>
        <TextField label="Số điện thoại" inputMode="tel" autoComplete="off" {...register('phone')} error={formState.errors.phone?.message} />
        <TextField label="Họ và tên" autoComplete="off" hint="Tên người dùng hoặc tên cơ quan." {...register('name')} error={formState.errors.name?.message} />
        <fieldset className="field-wide viewer-kind" aria-describedby={kindError ? kindErrorId : undefined}>
          <legend>Phạm vi xem</legend>
          <label className="viewer-choice">
            <input type="radio" value="province" aria-invalid={kindError ? true : undefined} {...kindField} />
            {viewerMessages.wholeProvince}
          </label>
          <label className="viewer-choice">
            <input type="radio" value="unit" aria-invalid={kindError ? true : undefined} {...kindField} />
            Đơn vị ({say('quận/huyện')})
          </label>
          {kindError && (
            <span id={kindErrorId} className="field-error" role="alert">
              {kindError}
            </span>
          )}
        </fieldset>
        {kind === 'unit' && (
          <UnitChoice
            units={districts.data}
            loading={districts.loading}
            chosen={chosen}
            onChange={choose}
            label={say('Quận/Huyện')}
            error={(formState.errors.district_ids as { message?: string } | undefined)?.message}
          />
        )}
        <div className="field-wide admin-actions">
          <Button type="submit" variant="accent" disabled={formState.isSubmitting}>
            Tạo tài khoản
          </Button>
        </div>
      </form>
      <CreatedAccountLink created={created} />
    </div>
  );
}

/** The units of a unit viewer: a checkbox each, a filter box over them (accents ignored), the count chosen. */
function UnitChoice({
  units,
  loading,
  chosen,
  onChange,
  label,
  error,
}: {
  units: readonly NamedItem[] | undefined;
  loading: boolean;
  chosen: number[];
  onChange: (ids: number[]) => void;
  label: string;
  error?: string;
}) {
  const [filter, setFilter] = useState('');
  const errorId = useId();
  const key = foldText(filter.trim());
  const shown = (units ?? []).filter((unit) => !key || foldText(unit.name).includes(key));
  const toggle = (id: number, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((other) => other !== id));
  return (
    <fieldset className="field-wide viewer-units" aria-describedby={error ? errorId : undefined} aria-busy={loading || undefined}>
      <legend>Các đơn vị được xem ({label})</legend>
      <TextField label={`Lọc theo tên ${label.toLocaleLowerCase('vi')}`} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
      <p className="muted" role="status">
        Đã chọn {formatNumber(chosen.length)} đơn vị (nhiều nhất {formatNumber(VIEWER_UNITS_MAX)}).
        {chosen.length > 0 && (
          <>
            {' '}
            <button type="button" className="viewer-units-clear" onClick={() => onChange([])}>
              Bỏ chọn tất cả
            </button>
          </>
        )}
      </p>
      <ul className="viewer-units-list">
        {shown.map((unit) => (
          <li key={unit.id}>
            <label className="viewer-choice">
              <input type="checkbox" checked={chosen.includes(unit.id)} onChange={(event) => toggle(unit.id, event.target.checked)} />
              {unit.name}
            </label>
          </li>
        ))}
        {units && shown.length === 0 && <li className="muted">Không có đơn vị nào khớp.</li>}
      </ul>
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
