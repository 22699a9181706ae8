import { z } from 'zod';
import { contestResponseSchema, contestUpdateSchema } from '../../../../shared/schemas/admin-contest';
import { adminSiteResponseSchema, siteFooterUpdateSchema } from '../../../../shared/schemas/site';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import { MAX_IMAGE_BYTES } from '../../media';
import { readUpload } from '../kit/uploads';
import { CERTIFICATE_IMAGE_MAX_BYTES, listCertificateImages } from '../../certificates';
import { certificateImageKinds, certificateImageLabels, certificateImagesResponseSchema } from '../../../../shared/schemas/certificate-printing';
import * as service from './service';

const logoResponseSchema = z.object({ success: z.literal(true), data: z.object({ path: z.string() }) });

/** The back office's contest routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminContestRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/contest', { schema: { summary: 'Cài đặt cuộc thi hiện tại: thời gian, bài thi, giải thưởng', response: { 200: contestResponseSchema } } }, async () => ({
    success: true as const,
    data: await service.getContestSettings(services),
  }));

  admin.put('/contest', { schema: { summary: 'Lưu cài đặt cuộc thi hiện tại', body: contestUpdateSchema, response: { 200: contestResponseSchema } } }, async (request) => {
    const { settings, warnings } = await service.updateContestSettings(services, auth.userOf(request), request.body);
    return { success: true as const, data: settings, warnings };
  });

  admin.get('/site', { schema: { summary: 'Chân trang của trang web (ban tổ chức, liên hệ, nhà tài trợ)', response: { 200: adminSiteResponseSchema } } }, async () => {
    const { footer, fromConfig } = await service.getSiteFooter(services);
    return { success: true as const, data: { footer, from_config: fromConfig } };
  });

  admin.put('/site', { schema: { summary: 'Lưu chân trang của trang web', body: siteFooterUpdateSchema, response: { 200: adminSiteResponseSchema } } }, async (request) => {
    const { footer, fromConfig } = await service.saveSiteFooter(services, auth.userOf(request), request.body);
    return { success: true as const, data: { footer, from_config: fromConfig } };
  });

  admin.post(
    '/site/sponsor-logo',
    {
      config: { upload: { maxBytes: MAX_IMAGE_BYTES, accept: 'image/jpeg,image/png,image/webp', fields: {} } },
      schema: { summary: 'Tải lên logo nhà tài trợ', response: { 200: logoResponseSchema } },
    },
    async (request) => {
      const upload = await readUpload(request);
      return { success: true as const, data: { path: await service.storeSponsorLogo(services, auth.userOf(request), upload) } };
    },
  );

  admin.get(
    '/site/certificate-images',
    { schema: { summary: 'Chữ ký và con dấu của ban tổ chức in trên giấy chứng nhận', response: { 200: certificateImagesResponseSchema } } },
    async () => ({ success: true as const, data: await listCertificateImages(services.db) }),
  );

  // POST /site/certificate-signature, /site/certificate-seal: one route each (a file, no other field).
  for (const kind of certificateImageKinds) {
    admin.post(
      `/site/certificate-${kind}`,
      {
        config: { upload: { maxBytes: CERTIFICATE_IMAGE_MAX_BYTES, accept: 'image/png', fields: {} } },
        schema: { summary: `Tải lên ${certificateImageLabels[kind].toLowerCase()} (PNG nền trong suốt, tối đa 1 MB, 2000 × 2000 điểm ảnh)`, response: { 200: certificateImagesResponseSchema } },
      },
      async (request) => {
        const upload = await readUpload(request);
        await service.storeCertificateImage(services, auth.userOf(request), kind, upload);
        return { success: true as const, data: await listCertificateImages(services.db) };
      },
    );
  }
}
