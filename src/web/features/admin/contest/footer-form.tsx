// The site footer's texts and its sponsors (name, link, logo uploaded to /api/admin/site/sponsor-logo),
// in the order they are shown.
import { useState } from 'react';
import { useFieldArray, useForm, type Path } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import { MAX_SPONSORS, siteFooterSchema, type SiteFooter } from '../../../../shared/schemas/site';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError, api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { uploadFile } from '../kit/upload';

export function FooterForm({ footer, fromConfig: initialFromConfig }: { footer: SiteFooter; fromConfig: boolean }) {
  const [fromConfig, setFromConfig] = useState(initialFromConfig);
  const [uploading, setUploading] = useState<number | null>(null);
  const form = useForm<SiteFooter>({ resolver: zodResolver(siteFooterSchema), defaultValues: footer });
  const { register, handleSubmit, formState, control, watch, setValue } = form;
  const sponsors = useFieldArray({ control, name: 'sponsors', keyName: 'key' });
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await api.put<{ data: { footer: SiteFooter; from_config: boolean } }>('/admin/site', values);
      form.reset(answer.data.footer);
      setFromConfig(answer.data.from_config);
      notify('success', 'Đã lưu thông tin chân trang.');
    } catch (error) {
      if (error instanceof ApiRequestError) {
        for (const [key, message] of Object.entries(error.errors)) form.setError(key as Path<SiteFooter>, { type: 'server', message });
      }
      notify('error', 'Chưa lưu được thông tin chân trang', errorMessage(error));
    }
  });

  const uploadLogo = async (index: number, file: File | undefined) => {
    if (!file) return;
    setUploading(index);
    try {
      const answer = await uploadFile<{ data: { path: string } }>('/admin/site/sponsor-logo', file);
      setValue(`sponsors.${index}.logo`, answer.data.path, { shouldDirty: true, shouldValidate: true });
    } catch (error) {
      notify('error', 'Không tải được logo lên', errorMessage(error));
    } finally {
      setUploading(null);
    }
  };

  return (
    <form className="admin-card" onSubmit={onSubmit} noValidate aria-labelledby="footer-form-title">
      <h2 id="footer-form-title">Chân trang</h2>
      {fromConfig && <p className="muted">Đang dùng nội dung mặc định của cấu hình máy chủ. Lưu để thay bằng nội dung của bạn.</p>}
      <div className="admin-form">
        <TextField label="Tên trang" {...register('siteName')} error={errors.siteName?.message} />
        <TextField label="Đơn vị tổ chức" {...register('organiserName')} error={errors.organiserName?.message} />
        <div className="field-wide">
          <TextField label="Địa chỉ" {...register('organiserAddress')} error={errors.organiserAddress?.message} />
        </div>
        <TextField label="Hotline" type="tel" {...register('hotline')} error={errors.hotline?.message} />
        <TextField label="E-mail liên hệ" type="email" {...register('contactEmail')} error={errors.contactEmail?.message} />
        <TextField label="Facebook" type="url" {...register('social.facebook')} error={errors.social?.facebook?.message} />
        <TextField label="YouTube" type="url" {...register('social.youtube')} error={errors.social?.youtube?.message} />
        <TextField label="Zalo" type="url" {...register('social.zalo')} error={errors.social?.zalo?.message} />
        <div className="field-wide">
          <TextField label="Dòng giấy phép" {...register('businessLicence')} error={errors.businessLicence?.message} />
        </div>
      </div>

      <h3 id="sponsors-title">Đơn vị đồng hành</h3>
      <ol className="contest-sponsors" aria-labelledby="sponsors-title">
        {sponsors.fields.map((field, index) => {
          const logo = watch(`sponsors.${index}.logo`);
          const name = watch(`sponsors.${index}.name`) || `Đơn vị ${index + 1}`;
          const rowErrors = errors.sponsors?.[index];
          return (
            <li key={field.key} className="contest-sponsor">
              <div className="contest-sponsor-logo">
                {logo ? <img src={logo} alt={`Logo ${name}`} width="160" height="64" /> : <span className="muted">Chưa có logo</span>}
              </div>
              <div className="contest-sponsor-fields">
                <TextField label={`Tên đơn vị ${index + 1}`} {...register(`sponsors.${index}.name`)} error={rowErrors?.name?.message} />
                <TextField label={`Liên kết của đơn vị ${index + 1}`} type="url" {...register(`sponsors.${index}.url`)} error={rowErrors?.url?.message} />
                <input type="hidden" {...register(`sponsors.${index}.logo`)} />
                <div className="field">
                  <label htmlFor={`sponsor-logo-${field.key}`}>Logo của đơn vị {index + 1} (JPEG, PNG hoặc WebP, tối đa 5 MB)</label>
                  <input
                    id={`sponsor-logo-${field.key}`}
                    type="file"
                    accept="image/jpeg,image/png,image/webp"
                    disabled={uploading !== null}
                    aria-describedby={rowErrors?.logo ? `sponsor-logo-${field.key}-error` : undefined}
                    onChange={(event) => void uploadLogo(index, event.target.files?.[0])}
                  />
                  {uploading === index && <span role="status">Đang tải lên…</span>}
                  {rowErrors?.logo && (
                    <span id={`sponsor-logo-${field.key}-error`} className="field-error" role="alert">
                      {rowErrors.logo.message}
                    </span>
                  )}
                </div>
              </div>
              <div className="contest-row-actions">
                <Button variant="outline" aria-label={`Đưa ${name} lên trên`} disabled={index === 0} onClick={() => sponsors.swap(index, index - 1)}>
                  ↑
                </Button>
                <Button variant="outline" aria-label={`Đưa ${name} xuống dưới`} disabled={index === sponsors.fields.length - 1} onClick={() => sponsors.swap(index, index + 1)}>
                  ↓
                </Button>
                <Button variant="danger" aria-label={`Xoá ${name}`} onClick={() => sponsors.remove(index)}>
                  Xoá
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      {errors.sponsors?.message && <p className="field-error" role="alert">{errors.sponsors.message}</p>}
      <div className="admin-actions">
        <Button variant="outline" disabled={sponsors.fields.length >= MAX_SPONSORS} onClick={() => sponsors.append({ name: '', url: 'https://', logo: '' })}>
          Thêm đơn vị đồng hành
        </Button>
        <Button type="submit" disabled={formState.isSubmitting || uploading !== null}>
          Lưu chân trang
        </Button>
      </div>
    </form>
  );
}
