// /api/admin catalogue routes (organiser only: the scope checks it): districts, schools, class
// groups and rooms, class teachers, and the two imports.
import { z } from 'zod';
import { importResponseSchema, okResponseSchema, pageResponseSchema } from '../../../../shared/schemas/admin';
import {
  adminClassGroupSchema,
  adminClassRoomSchema,
  adminClassTeacherSchema,
  adminDistrictSchema,
  adminSchoolSchema,
  classGroupInputSchema,
  classGroupsQuerySchema,
  classRoomInputSchema,
  classRoomsQuerySchema,
  classRoomUsageSchema,
  classTeacherInputSchema,
  classTeacherParamsSchema,
  classTeachersQuerySchema,
  dataResponse,
  districtInputSchema,
  districtsQuerySchema,
  idParamsSchema,
  mergeInputSchema,
  mergeQuerySchema,
  districtMergePreviewSchema,
  schoolMergePreviewSchema,
  schoolInputSchema,
  schoolsQuerySchema,
  schoolUsageSchema,
} from '../../../../shared/schemas/admin-catalog';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import { answerImport, importRouteConfig, readImportUpload } from '../kit/imports';
import * as service from './service';
import * as merge from './merge';
import * as imports from './imports';
import * as move from './move';
import { catalogueMoveAnswerShape } from '../../../../shared/schemas/catalogue-move';

const districtSchema = z.object({ id: z.number().int(), name: z.string() });
const schoolSchema = z.object({ id: z.number().int(), district_id: z.number().int(), name: z.string(), address: z.string(), pupil_count: z.number().int() });
const classGroupSchema = z.object({ id: z.number().int(), name: z.string(), grades: z.string(), position: z.number().int() });
const classRoomSchema = z.object({ id: z.number().int(), class_group_id: z.number().int(), name: z.string(), position: z.number().int() });
const classTeacherSchema = z.object({ school_id: z.number().int(), class_name: z.string(), teacher_name: z.string() });

const importConfig = importRouteConfig('.xlsx, .csv (UTF-8)');

/** The back office's catalog routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminCatalogRoutes(admin: Api, services: Services) {
  const actorOf = services.auth.userOf;
  const ok = <T>(data: T) => ({ success: true as const, data });

  /** GET …/:id/merge?into_id= counts what a merge would move; POST …/:id/merge does it (merge.ts). */
  function registerMerge<Preview, Kept>(
    path: 'districts' | 'schools',
    schemas: { preview: z.ZodType<Preview>; kept: z.ZodType<Kept> },
    preview: (deps: Services, id: number, intoId: number) => Promise<Preview>,
    run: (deps: Services, actor: ReturnType<typeof actorOf>, id: number, intoId: number) => Promise<{ moved: Preview; into: Kept }>,
    summaries: { preview: string; merge: string },
  ) {
    admin.get(
      `/${path}/:id/merge`,
      { schema: { summary: summaries.preview, params: idParamsSchema, querystring: mergeQuerySchema, response: { 200: dataResponse(schemas.preview) } } },
      async (request) => ok(await preview(services, request.params.id, request.query.into_id)),
    );
    admin.post(
      `/${path}/:id/merge`,
      {
        schema: {
          summary: summaries.merge,
          params: idParamsSchema,
          body: mergeInputSchema,
          response: { 200: dataResponse(z.object({ moved: schemas.preview, into: schemas.kept })) },
        },
      },
      async (request) => ok(await run(services, actorOf(request), request.params.id, request.body.into_id)),
    );
  }

  // Districts
  admin.get('/districts', { schema: { summary: 'Danh sách quận/huyện (có phân trang, tìm kiếm, sắp xếp)', querystring: districtsQuerySchema, response: { 200: pageResponseSchema(adminDistrictSchema) } } }, async (request) =>
    ok(await service.listDistricts(services, request.query)),
  );
  admin.post('/districts', { schema: { summary: 'Thêm quận/huyện', body: districtInputSchema, response: { 200: dataResponse(districtSchema) } } }, async (request) =>
    ok(await service.createDistrict(services, actorOf(request), request.body)),
  );
  admin.put(
    '/districts/:id',
    { schema: { summary: 'Sửa quận/huyện', params: idParamsSchema, body: districtInputSchema, response: { 200: dataResponse(districtSchema) } } },
    async (request) => ok(await service.updateDistrict(services, actorOf(request), request.params.id, request.body)),
  );
  admin.delete('/districts/:id', { schema: { summary: 'Xoá quận/huyện (khi không còn trường nào)', params: idParamsSchema, response: { 200: okResponseSchema } } }, async (request) => {
    await service.deleteDistrict(services, actorOf(request), request.params.id);
    return { success: true as const };
  });

  registerMerge('districts', { preview: districtMergePreviewSchema, kept: districtSchema }, merge.previewDistrictMerge, merge.mergeDistrict, {
    preview: 'Chạy thử gộp một quận/huyện vào quận/huyện khác: đếm những gì sẽ chuyển (không thay đổi gì)',
    merge: 'Gộp một quận/huyện vào quận/huyện khác (trường cùng tên được gộp làm một)',
  });

  // Schools
  admin.get('/schools', { schema: { summary: 'Danh sách trường (có phân trang, tìm kiếm, lọc theo quận/huyện)', querystring: schoolsQuerySchema, response: { 200: pageResponseSchema(adminSchoolSchema) } } }, async (request) =>
    ok(await service.listSchools(services, request.query)),
  );
  admin.post('/schools', { schema: { summary: 'Thêm trường', body: schoolInputSchema, response: { 200: dataResponse(schoolSchema) } } }, async (request) =>
    ok(await service.createSchool(services, actorOf(request), request.body)),
  );
  admin.put(
    '/schools/:id',
    { schema: { summary: 'Sửa trường', params: idParamsSchema, body: schoolInputSchema, response: { 200: dataResponse(schoolSchema) } } },
    async (request) => ok(await service.updateSchool(services, actorOf(request), request.params.id, request.body)),
  );
  admin.delete('/schools/:id', { schema: { summary: 'Xoá trường (khi chưa được dùng)', params: idParamsSchema, response: { 200: okResponseSchema } } }, async (request) => {
    await service.deleteSchool(services, actorOf(request), request.params.id);
    return { success: true as const };
  });
  admin.get('/schools/:id/usage', { schema: { summary: 'Những gì đang dùng một trường (thí sinh, tài khoản, lớp)', params: idParamsSchema, response: { 200: dataResponse(schoolUsageSchema) } } }, async (request) =>
    ok(await service.schoolUsage(services, request.params.id)),
  );
  registerMerge('schools', { preview: schoolMergePreviewSchema, kept: schoolSchema }, merge.previewSchoolMerge, merge.mergeSchool, {
    preview: 'Chạy thử gộp một trường vào trường khác: đếm những gì sẽ chuyển (không thay đổi gì)',
    merge: 'Gộp một trường vào trường khác',
  });
  admin.post(
    '/schools/import',
    { config: importConfig, schema: { summary: 'Nhập danh sách trường từ tệp Excel hoặc CSV (có chạy thử)', response: { 200: importResponseSchema({ districts_created: z.number().int() }) } } },
    async (request, reply) => answerImport(reply, await imports.importSchools(services, actorOf(request), await readImportUpload(request))),
  );

  // The catalogue's move to a new map between seasons (decision 038)
  admin.post(
    '/catalog/move',
    {
      config: importRouteConfig('.xlsx, .csv (UTF-8)', { confirm_rows: 'Các dòng (số dòng, cách nhau bởi dấu phẩy) có trường khớp theo tên viết khác mà ban tổ chức đã xác nhận: cần đủ mọi dòng như vậy để lưu.' }),
      schema: {
        summary: 'Chuyển danh mục trường sang bản đồ hành chính mới cho mùa thi hiện tại: chạy thử (đơn vị mới, trường chuyển đơn vị, đổi tên, sáp nhập, đóng) rồi lưu',
        response: { 200: importResponseSchema(catalogueMoveAnswerShape) },
      },
    },
    async (request, reply) => answerImport(reply, await move.importCatalogueMove(services, actorOf(request), await readImportUpload(request))),
  );
  admin.get('/catalog/move.xlsx', { schema: { summary: 'Tải danh mục trường hiện tại theo mẫu chuyển danh mục (để sửa theo bản đồ mới)' } }, async (_request, reply) =>
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', 'attachment; filename="danh-muc-hien-tai.xlsx"')
      .send(await move.currentCatalogueXlsx(services.db)),
  );

  // Class groups and rooms
  admin.get('/class-groups', { schema: { summary: 'Danh sách nhóm lớp (có sắp xếp)', querystring: classGroupsQuerySchema, response: { 200: pageResponseSchema(adminClassGroupSchema) } } }, async (request) =>
    ok(await service.listClassGroups(services, request.query)),
  );
  admin.post('/class-groups', { schema: { summary: 'Thêm nhóm lớp', body: classGroupInputSchema, response: { 200: dataResponse(classGroupSchema) } } }, async (request) =>
    ok(await service.createClassGroup(services, actorOf(request), request.body)),
  );
  admin.put(
    '/class-groups/:id',
    { schema: { summary: 'Sửa nhóm lớp', params: idParamsSchema, body: classGroupInputSchema, response: { 200: dataResponse(classGroupSchema) } } },
    async (request) => ok(await service.updateClassGroup(services, actorOf(request), request.params.id, request.body)),
  );
  admin.delete('/class-groups/:id', { schema: { summary: 'Xoá nhóm lớp (khi chưa được dùng)', params: idParamsSchema, response: { 200: okResponseSchema } } }, async (request) => {
    await service.deleteClassGroup(services, actorOf(request), request.params.id);
    return { success: true as const };
  });
  admin.get('/class-rooms', { schema: { summary: 'Danh sách lớp của các trường (có phân trang, tìm kiếm)', querystring: classRoomsQuerySchema, response: { 200: pageResponseSchema(adminClassRoomSchema) } } }, async (request) =>
    ok(await service.listClassRooms(services, request.query)),
  );
  admin.post(
    '/class-rooms/import',
    { config: importConfig, schema: { summary: 'Nhập danh sách lớp (nhóm lớp, lớp) từ tệp Excel hoặc CSV (có chạy thử)', response: { 200: importResponseSchema() } } },
    async (request, reply) => answerImport(reply, await imports.importClassRooms(services, actorOf(request), await readImportUpload(request))),
  );
  admin.post('/class-rooms', { schema: { summary: 'Thêm lớp', body: classRoomInputSchema, response: { 200: dataResponse(classRoomSchema) } } }, async (request) =>
    ok(await service.createClassRoom(services, actorOf(request), request.body)),
  );
  admin.put(
    '/class-rooms/:id',
    { schema: { summary: 'Sửa lớp', params: idParamsSchema, body: classRoomInputSchema, response: { 200: dataResponse(classRoomSchema) } } },
    async (request) => ok(await service.updateClassRoom(services, actorOf(request), request.params.id, request.body)),
  );
  admin.delete('/class-rooms/:id', { schema: { summary: 'Xoá lớp (khi chưa được dùng)', params: idParamsSchema, response: { 200: okResponseSchema } } }, async (request) => {
    await service.deleteClassRoom(services, actorOf(request), request.params.id);
    return { success: true as const };
  });
  admin.get('/class-rooms/:id/usage', { schema: { summary: 'Những gì đang dùng một lớp (thí sinh, giáo viên chủ nhiệm)', params: idParamsSchema, response: { 200: dataResponse(classRoomUsageSchema) } } }, async (request) =>
    ok(await service.classRoomUsage(services, request.params.id)),
  );
  admin.post(
    '/class-rooms/:id/merge',
    {
      schema: {
        summary: 'Gộp một lớp vào lớp khác của cùng trường',
        params: idParamsSchema,
        body: mergeInputSchema,
        response: { 200: dataResponse(z.object({ moved: classRoomUsageSchema, into: classRoomSchema })) },
      },
    },
    async (request) => ok(await service.mergeClassRoom(services, actorOf(request), request.params.id, request.body.into_id)),
  );

  // Class teachers (a row is keyed by its school and its class key, e.g. /class-teachers/12/5A1)
  admin.get(
    '/class-teachers',
    { schema: { summary: 'Danh sách giáo viên chủ nhiệm theo lớp', querystring: classTeachersQuerySchema, response: { 200: pageResponseSchema(adminClassTeacherSchema) } } },
    async (request) => ok(await service.listClassTeachers(services, request.query)),
  );
  admin.post('/class-teachers', { schema: { summary: 'Thêm giáo viên chủ nhiệm của một lớp', body: classTeacherInputSchema, response: { 200: dataResponse(classTeacherSchema) } } }, async (request) =>
    ok(await service.createClassTeacher(services, actorOf(request), request.body)),
  );
  admin.put(
    '/class-teachers/:school_id/:class_name',
    { schema: { summary: 'Sửa giáo viên chủ nhiệm của một lớp', params: classTeacherParamsSchema, body: classTeacherInputSchema, response: { 200: dataResponse(classTeacherSchema) } } },
    async (request) => ok(await service.updateClassTeacher(services, actorOf(request), request.params, request.body)),
  );
  admin.delete(
    '/class-teachers/:school_id/:class_name',
    { schema: { summary: 'Xoá giáo viên chủ nhiệm của một lớp', params: classTeacherParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await service.deleteClassTeacher(services, actorOf(request), request.params);
      return { success: true as const };
    },
  );
  admin.post(
    '/class-teachers/import',
    { config: importConfig, schema: { summary: 'Nhập giáo viên chủ nhiệm từ tệp Excel hoặc CSV (có chạy thử)', response: { 200: importResponseSchema() } } },
    async (request, reply) => answerImport(reply, await imports.importClassTeachers(services, actorOf(request), await readImportUpload(request))),
  );
}
