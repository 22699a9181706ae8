// The OpenAPI transforms alone (no database): a multipart upload route becomes a
// multipart/form-data body, tags and the bearer scheme are added, every operation gets the error
// answers, and a small Fastify app with @fastify/swagger gives a document of the right shape.
import Fastify, { type RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseDocument, createOpenApiTransform, createOpenApiTransformObject, errorStatusesOf, operationIdOf, uploadBodySchema } from './openapi';

const rules = { tagsOf: (url: string) => (url.startsWith('/api/admin/') ? ['Quản trị'] : []), needsToken: (route: RouteOptions) => route.url.startsWith('/api/admin/') };
const info = { title: 'T', version: '1.2.3', description: 'D', license: { name: 'Proprietary', url: 'https://x.vn/the-le' }, tags: [{ name: 'Quản trị', description: 'x' }] };

describe('uploadBodySchema', () => {
  it('has the binary file (required) and each declared field with its description', () => {
    expect(uploadBodySchema({ fields: { dry_run: '1 để chạy thử', mode: 'append hoặc replace' }, accept: '.xlsx, .csv' })).toEqual({
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream', description: 'Tệp cần tải lên (.xlsx, .csv).' },
        dry_run: { type: 'string', description: '1 để chạy thử' },
        mode: { type: 'string', description: 'append hoặc replace' },
      },
    });
  });
});

describe('createOpenApiTransform', () => {
  const transform = createOpenApiTransform(rules);
  const openapiObject = { openapi: '3.1.0' };
  const call = (url: string, schema: object | undefined, config: object = {}) =>
    transform({ schema: schema as never, url, route: { url, method: 'POST', config, schema } as unknown as RouteOptions, openapiObject });

  it('turns config.upload into a multipart/form-data body', () => {
    const { schema } = call('/api/admin/x/import', { response: { 200: z.object({ success: z.literal(true) }) } }, { upload: { fields: { dry_run: 'chạy thử' } } });
    expect(schema.consumes).toEqual(['multipart/form-data']);
    expect(schema.body).toMatchObject({ required: ['file'], properties: { file: { format: 'binary' }, dry_run: { description: 'chạy thử' } } });
    expect(schema.tags).toEqual(['Quản trị']);
    expect(schema.security).toEqual([{ bearerAuth: [] }]);
  });

  it('converts Zod schemas, keeps explicit tags and security, and leaves hidden routes hidden', () => {
    const { schema } = call('/api/login', { body: z.object({ phone: z.string() }), tags: ['A'], security: [] });
    expect(schema.body).toMatchObject({ type: 'object', properties: { phone: { type: 'string' } } });
    expect(schema.tags).toEqual(['A']);
    expect(schema.security).toEqual([]);
    expect(schema.consumes).toBeUndefined();
    // A public route says it needs nothing.
    expect(call('/api/site', { tags: ['A'] }).schema.security).toEqual([]);
    expect(call('/api/docs/json', { hide: true }, { upload: {} }).schema).toEqual({ hide: true });
  });
});

describe('operationIdOf', () => {
  it('is the method and the path after /api in camel case, a parameter as By<Name>', () => {
    expect(operationIdOf('get', '/api/site')).toBe('getSite');
    expect(operationIdOf('post', '/api/customer/change-password')).toBe('postCustomerChangePassword');
    expect(operationIdOf('delete', '/api/admin/books/{bookId}/questions/{questionId}')).toBe('deleteAdminBooksByBookIdQuestionsByQuestionId');
    expect(operationIdOf('get', '/api/admin/templates/schools.xlsx')).toBe('getAdminTemplatesSchoolsXlsx');
    expect(operationIdOf('get', '/healthz')).toBe('getRootHealthz');
  });
});

describe('errorStatusesOf', () => {
  it('derives the error answers from what the operation takes', () => {
    expect(errorStatusesOf('/api/site', 'get', {})).toEqual(['400', '503', 'default']);
    expect(errorStatusesOf('/api/blog/{slug}', 'get', { parameters: [{}] })).toEqual(['400', '404', '503', 'default']);
    expect(errorStatusesOf('/api/admin/x/import', 'post', { security: [{}], requestBody: { content: { 'multipart/form-data': {} } } })).toEqual([
      '400', '401', '403', '413', '422', '503', 'default',
    ]);
  });
});

describe('a document from a small app', () => {
  it('is OpenAPI 3.1 with the bearer scheme, the error schema, tags and a multipart upload', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(swagger, { openapi: baseDocument, transform: createOpenApiTransform(rules), transformObject: createOpenApiTransformObject(info) });
    app.post('/api/admin/books/:id/import', { schema: { params: z.object({ id: z.coerce.number() }) }, config: { upload: { maxBytes: 1024, fields: { mode: 'append | replace' } } } }, async () => ({}));
    app.get('/api/site', { schema: { response: { 200: z.object({ success: z.literal(true) }) } } }, async () => ({ success: true as const }));
    await app.ready();
    const document = app.swagger() as any;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'T', version: '1.2.3', description: 'D', license: info.license });
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(document.tags).toEqual(info.tags);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.ApiError).toMatchObject({ type: 'object', required: expect.arrayContaining(['success', 'code', 'message']) });
    expect(document.components.schemas.ApiError.properties.code.enum).toContain('import_invalid');
    const upload = document.paths['/api/admin/books/{id}/import'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema).toMatchObject({ required: ['file'], properties: { file: { format: 'binary' }, mode: { type: 'string' } } });
    expect(upload.security).toEqual([{ bearerAuth: [] }]);
    expect(upload.responses['422']).toEqual({ $ref: '#/components/responses/Error422' });
    expect(document.components.responses.Error422.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiError' });
    expect(document.paths['/api/site'].get.security).toEqual([]);
    expect(upload.operationId).toBe('postAdminBooksByIdImport');
    expect(document.paths['/api/site'].get.operationId).toBe('getSite');
    await app.close();
  });

  it('refuses two operations with one operationId', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(swagger, { openapi: baseDocument, transform: createOpenApiTransform(rules), transformObject: createOpenApiTransformObject(info) });
    app.get('/api/class-rooms', async () => ({}));
    app.get('/api/class/rooms', async () => ({}));
    await app.ready();
    expect(() => app.swagger()).toThrow('operationId getClassRooms of GET /api/class/rooms is also GET /api/class-rooms');
    await app.close();
  });
});
