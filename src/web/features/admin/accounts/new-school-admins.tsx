// School administrators: one by one (phone, name, district -> school) or from a spreadsheet. Each
// new account gets a one-time link to set its password, sent by SMS and shown here to copy.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import type { z } from 'zod';
import { Link } from 'wouter';
import { createSchoolAdminSchema, type PasswordLink } from '../../../../shared/schemas/admin-accounts';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { errorMessage, showServerFieldErrors } from '../../../lib/server-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { NamedOptions, useDistrictSchools } from '../kit/district-schools';
import { ImportPanel } from '../kit/import-panel';
import { CreatedAccountLink, PasswordLinks, postNewAccount, type CreatedAccount } from './password-links';
import { useUnitWords } from '../../../lib/site';

type FormInput = z.input<typeof createSchoolAdminSchema>;
type FormOutput = z.output<typeof createSchoolAdminSchema>;
export function NewSchoolAdminsPage() {
  const say = useUnitWords();
  usePageTitle('Tạo tài khoản quản trị trường');
  return (
    <section className="admin-page">
      <p>
        <Link href="/">← Danh sách tài khoản</Link>
      </p>
      <h1>Tạo tài khoản quản trị trường</h1>
      <p>
        Mỗi tài khoản mới nhận một liên kết dùng một lần để tự đặt mật khẩu (hết hạn sau 72 giờ), gửi qua SMS và hiện ở đây để bạn sao chép.
      </p>
      <SchoolAdminForm />
      <ImportPanel
        title="Nhập danh sách từ tệp Excel"
        path="/admin/school-admins/import"
        template="school-admins"
        accept=".xlsx,.csv"
        hint={say('Tệp .xlsx hoặc .csv (UTF-8) với các cột Số điện thoại, Họ và tên, Quận/Huyện, Trường. Số đã là quản trị trường sẽ được cập nhật nếu tên hoặc trường khác.')}
        renderResult={(data) => <PasswordLinks links={(data.links as PasswordLink[]) ?? []} smsFailed={(data.sms_failed as string[]) ?? []} />}
      />
    </section>
  );
}

function SchoolAdminForm() {
  const say = useUnitWords();
  const [created, setCreated] = useState<CreatedAccount | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createSchoolAdminSchema),
    defaultValues: { phone: '', name: '', district_id: '', school_id: '' },
  });
  const { register, handleSubmit, formState, watch, setValue } = form;
  const districtId = String(watch('district_id') ?? '');
  const { districts, schools } = useDistrictSchools(districtId);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const account = await postNewAccount('/admin/school-admins', values);
      setCreated(account);
      notify('success', 'Đã tạo tài khoản', account.link.phone);
      form.reset({ phone: '', name: '', district_id: values.district_id, school_id: '' });
    } catch (error) {
      if (showServerFieldErrors(error, form.setError, ['phone', 'name', 'district_id', 'school_id']) === 0) {
        notify('error', 'Không tạo được tài khoản', errorMessage(error));
      }
    }
  });

  return (
    <div className="admin-card">
      <h2>Tạo từng tài khoản</h2>
      <form className="admin-form" onSubmit={onSubmit} noValidate>
        <TextField label="Số điện thoại" inputMode="tel" autoComplete="off" {...register('phone')} error={formState.errors.phone?.message} />
        <TextField label="Họ và tên" autoComplete="off" {...register('name')} error={formState.errors.name?.message} />
        <SelectField
          label={say('Quận/Huyện')}
          {...register('district_id', { onChange: () => setValue('school_id', '') })}
          aria-busy={districts.loading}
          error={formState.errors.district_id?.message}
        >
          <option value="">{say('Chọn quận/huyện')}</option>
          <NamedOptions items={districts.data} />
        </SelectField>
        <SelectField
          label="Trường"
          {...register('school_id')}
          disabled={!districtId}
          aria-busy={schools.loading}
          error={formState.errors.school_id?.message}
        >
          <option value="">Chọn trường</option>
          <NamedOptions items={(districtId ? schools.data : [])} />
        </SelectField>
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
