import { z } from 'zod';
import {
  classGroupSchema,
  classGroupWithBooksSchema,
  classRoomsQuerySchema,
  districtsResponseSchema,
  listResponse,
  namedItemSchema,
  schoolSchema,
  schoolsQuerySchema,
} from '../../../shared/schemas/catalog';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { readFromReplica } from '../../db/replicas';
import * as repo from './repo';
import { getCurrentContest } from '../../core/contest';
import { unitLevelLabels } from '../../../shared/unit-level';

// Reference data changes rarely: let browsers and proxies keep it for a few minutes.
const CACHE_REFERENCE_DATA = 'public, max-age=300';

// Public pages: read from a replica when one is usable (db/replicas.ts).
export function registerCatalogRoutes(api: Api, services: Services) {
  api.get(
    '/districts',
    { schema: { summary: 'Danh sách quận/huyện (hoặc xã/phường, theo mùa thi) có trường', response: { 200: districtsResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', CACHE_REFERENCE_DATA);
      const { data, level } = await readFromReplica(services, async (db) => ({ data: await repo.listDistricts(db), level: (await getCurrentContest(db))?.unit_level }));
      const labels = unitLevelLabels(level);
      return { success: true as const, data, unit_level: labels.level, unit_label: labels.long };
    },
  );

  api.get(
    '/schools',
    { schema: { summary: 'Danh sách trường của một quận/huyện', querystring: schoolsQuerySchema, response: { 200: listResponse(schoolSchema) } } },
    async (request, reply) => {
      reply.header('cache-control', CACHE_REFERENCE_DATA);
      return { success: true as const, data: await readFromReplica(services, (db) => repo.listSchools(db, request.query.district_id)) };
    },
  );

  api.get('/class-groups', { schema: { summary: 'Danh sách khối lớp', response: { 200: listResponse(classGroupSchema) } } }, async (_request, reply) => {
    reply.header('cache-control', CACHE_REFERENCE_DATA);
    return { success: true as const, data: await readFromReplica(services, repo.listClassGroups) };
  });

  api.get(
    '/class-rooms',
    { schema: { summary: 'Danh sách lớp của một trường và khối lớp', querystring: classRoomsQuerySchema, response: { 200: listResponse(namedItemSchema) } } },
    async (request, reply) => {
      reply.header('cache-control', CACHE_REFERENCE_DATA);
      return { success: true as const, data: await readFromReplica(services, (db) => repo.listClassRooms(db, request.query.class_group_id)) };
    },
  );

  // The home page's suggested books, by class group (not in the spec's call list; ours).
  api.get(
    '/books',
    { schema: { summary: 'Sách của từng khối lớp', response: { 200: z.object({ success: z.literal(true), data: z.array(classGroupWithBooksSchema) }) } } },
    async (_request, reply) => {
      const [groups, books] = await readFromReplica(services, (db) => Promise.all([repo.listClassGroups(db), repo.listBooks(db)]));
      reply.header('cache-control', CACHE_REFERENCE_DATA);
      return {
        success: true as const,
        data: groups.map((group) => ({ ...group, books: books.filter((book) => book.class_group_id === group.id) })),
      };
    },
  );
}
