import type { ApiUser } from '../../../shared/schemas/auth';
import type { Role } from '../../db/schema';

/** The user object every answer carries (and the web keeps in its `user` cookie). */
export function toApiUser(user: { id: number; phone: string; name: string; role: Role }): ApiUser {
  return { id: user.id, phone: user.phone, name: user.name, is_admin_school: user.role === 'school_admin' ? 1 : 0, role: user.role };
}
