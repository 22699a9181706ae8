// Certificates: the child's certificates (GET /api/chilren-certificate, spelled as the spec
// does), their files for the owner, and the public verification of a code.
import {
  certificateFileParamsSchema,
  childCertificateQuerySchema,
  childCertificateResponseSchema,
  verifyParamsSchema,
  verifyResponseSchema,
} from '../../../shared/schemas/certificates';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { certificateFile, childCertificates, verifyCertificate } from './service';

export function registerCertificateRoutes(api: Api, services: Services) {
  const { auth } = services;

  api.get(
    '/chilren-certificate',
    { preHandler: auth.requireUser, schema: { summary: 'Giấy chứng nhận của một thí sinh (của phụ huynh đang đăng nhập)', querystring: childCertificateQuerySchema, response: { 200: childCertificateResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return childCertificates(services, auth.userOf(request), request.query.child_id);
    },
  );

  api.get('/certificates/verify/:code', { schema: { summary: 'Tra cứu một mã giấy chứng nhận (công khai)', params: verifyParamsSchema, response: { 200: verifyResponseSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    return verifyCertificate(services, request.params.code);
  });

  // Binary answer: no response schema; the owner check is in the service.
  api.get('/certificates/:code/:format', { preHandler: auth.requireUser, schema: { summary: 'Tải giấy chứng nhận (PDF hoặc ảnh)', params: certificateFileParamsSchema } }, async (request, reply) => {
    const file = await certificateFile(services, auth.userOf(request), request.params.code, request.params.format);
    reply.header('cache-control', 'private, no-cache').header('etag', file.etag);
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    const disposition = request.params.format === 'pdf' ? 'attachment' : 'inline';
    return reply.type(file.contentType).header('content-disposition', `${disposition}; filename="${file.fileName}"`).send(file.body);
  });
}
