// Writing a news post: title, picture, body (the rich-text editor, loaded on demand) and whether
// it is published. One form for a new post (POST) and an existing one (PUT), checked with the
// same schema as the server.
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import {
  DEFAULT_NEWS_IMAGE,
  newsCreateSchema,
  type AdminNewsPost,
  type NewsCreate,
  type NewsCreateInput,
} from '../../../../shared/schemas/admin-news';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { errorMessage, showServerFieldErrors } from '../../../lib/server-errors';
import { uploadFile } from '../kit/upload';

const RichTextEditor = lazy(() => import('./rich-text-editor'));

/** Sends a picture to POST /api/admin/news/images; its address, or a notice and a rejection. */
export async function uploadNewsImage(file: File): Promise<string> {
  try {
    const answer = await uploadFile<{ data: { url: string } }>('/admin/news/images', file);
    return answer.data.url;
  } catch (error) {
    notify('error', 'Không tải được ảnh lên', errorMessage(error));
    throw error;
  }
}

export function NewsForm({ post, onSaved, onCancel }: { post?: AdminNewsPost; onSaved: (post: AdminNewsPost) => void; onCancel: () => void }) {
  const ids = { body: useId(), published: useId() };
  const form = useForm<NewsCreateInput, unknown, NewsCreate>({
    resolver: zodResolver(newsCreateSchema),
    defaultValues: {
      name: post?.name ?? '',
      body_html: post?.body_html ?? '',
      image: post?.image ?? DEFAULT_NEWS_IMAGE,
      published: post?.published ?? false,
    },
  });
  const { register, handleSubmit, formState, control, setValue, watch } = form;
  const image = watch('image') ?? DEFAULT_NEWS_IMAGE;
  const [uploading, setUploading] = useState(false);
  const imageInput = useRef<HTMLInputElement>(null);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = post
        ? await api.put<{ data: AdminNewsPost }>(`/admin/news/${post.id}`, values)
        : await api.post<{ data: AdminNewsPost }>('/admin/news', values);
      notify('success', post ? 'Đã lưu bài viết' : 'Đã thêm bài viết', answer.data.published ? 'Bài viết đang hiện trên trang tin tức.' : 'Bài viết là bản nháp.');
      onSaved(answer.data);
    } catch (error) {
      if (!showServerFieldErrors(error, form.setError, ['name', 'body_html', 'image', 'published'])) {
        notify('error', 'Không lưu được bài viết', errorMessage(error));
      }
    }
  });

  async function choosePicture(file: File) {
    setUploading(true);
    try {
      setValue('image', await uploadNewsImage(file), { shouldDirty: true });
    } catch {
      // Already told (uploadNewsImage).
    } finally {
      setUploading(false);
    }
  }

  const bodyError = formState.errors.body_html?.message;
  return (
    <form className="news-form" onSubmit={onSubmit} noValidate>
      <TextField label="Tiêu đề" maxLength={300} {...register('name')} error={formState.errors.name?.message} />

      <fieldset className="news-form-picture">
        <legend>Ảnh đại diện</legend>
        <img src={image} alt="Ảnh đại diện hiện tại" width={240} height={135} />
        <div>
          <Button variant="outline" disabled={uploading} onClick={() => imageInput.current?.click()}>
            {uploading ? 'Đang tải ảnh…' : 'Chọn ảnh mới'}
          </Button>
          <input
            ref={imageInput}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            hidden
            aria-label="Ảnh đại diện"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void choosePicture(file);
            }}
          />
          {image !== DEFAULT_NEWS_IMAGE && (
            <Button variant="outline" onClick={() => setValue('image', DEFAULT_NEWS_IMAGE, { shouldDirty: true })}>
              Dùng ảnh chung
            </Button>
          )}
          <p className="field-hint">JPEG, PNG hoặc WebP, tối đa 5 MB; ảnh được thu nhỏ cho web. Không chọn: dùng ảnh minh hoạ chung.</p>
          {formState.errors.image?.message && (
            <p className="field-error" role="alert">
              {formState.errors.image.message}
            </p>
          )}
        </div>
      </fieldset>

      <div className="field news-form-body" data-invalid={bodyError ? 'true' : undefined}>
        <span id={`${ids.body}-label`} className="news-form-label">
          Nội dung
        </span>
        <Controller
          control={control}
          name="body_html"
          render={({ field }) => (
            <Suspense fallback={<p className="rich-text-loading">Đang tải trình soạn thảo…</p>}>
              <RichTextEditor
                initialHtml={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                labelId={`${ids.body}-label`}
                describedBy={bodyError ? `${ids.body}-error` : undefined}
                invalid={Boolean(bodyError)}
                uploadImage={uploadNewsImage}
              />
            </Suspense>
          )}
        />
        {bodyError && (
          <span id={`${ids.body}-error`} className="field-error" role="alert">
            {bodyError}
          </span>
        )}
      </div>

      <div className="news-form-check">
        <input id={ids.published} type="checkbox" {...register('published')} />
        <label htmlFor={ids.published}>Đăng ngay (hiện trên trang chủ và trang Tin tức)</label>
      </div>

      <div className="admin-actions">
        <Button type="submit" disabled={formState.isSubmitting || uploading}>
          {formState.isSubmitting ? 'Đang lưu…' : 'Lưu bài viết'}
        </Button>
        <Button variant="outline" onClick={onCancel}>
          Quay lại danh sách
        </Button>
      </div>
    </form>
  );
}
