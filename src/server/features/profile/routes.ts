// GET /api/profile and POST /api/customer/profile (spec section 7): the account and its contestants.
import { messages } from '../../../shared/messages';
import { profileResponseSchema, profileUpdateRequestSchema, profileUpdateResponseSchema } from '../../../shared/schemas/profile';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import * as profiles from './service';
import { readFromReplica } from '../../db/replicas';
import { refuseViewers } from '../../core/guard';

export function registerProfileRoutes(api: Api, services: Services) {
  const { auth } = services;
  // The education offices' viewers have no family (issue 41): 403 with its own message.
  const familyAccounts = [auth.requireUser, refuseViewers(auth)];

  api.get('/profile', { preHandler: familyAccounts, schema: { summary: 'Hồ sơ phụ huynh và các con dự thi', response: { 200: profileResponseSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // The parent's report and profile (decision 030): from a replica only once it has every write
    // the primary had, so a child just enrolled or an exam just submitted is always there.
    return { success: true as const, data: await readFromReplica(services, (db) => profiles.loadProfile({ ...services, db }, auth.userOf(request).id), { caughtUp: true }) };
  });

  api.post(
    '/customer/profile',
    { preHandler: familyAccounts, schema: { summary: 'Lưu hồ sơ phụ huynh và các con dự thi', body: profileUpdateRequestSchema, response: { 200: profileUpdateResponseSchema } } },
    async (request) => {
      const saved = await profiles.saveProfile(services, auth.userOf(request), request.body);
      return { success: true as const, message: messages.profileSaved, ...saved };
    },
  );
}
