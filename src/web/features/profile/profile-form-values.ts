// The profile form's values (strings, as the inputs hold them) and the request built from them.
import type { FieldErrors, Resolver } from 'react-hook-form';
import { toNestErrors } from '@hookform/resolvers';
import { NAME_CONSENT_DEFAULT } from '../../../shared/privacy';
import { CLASS_ROOM_OTHER } from '../../../shared/rules';
import { profileUpdateRequestSchema, type Contestant, type ProfileUpdateRequest } from '../../../shared/schemas/profile';
import '../../lib/zod-messages'; // Vietnamese messages for the issues of safeParse below

export interface ContestantFormValues {
  /** Set once the contestant is saved. */
  id?: number;
  /** True when the contestant has an exam: the card is read-only and cannot be deleted. */
  locked: boolean;
  fullname: string;
  district_id: string;
  school_id: string;
  class_group_id: string;
  /** A class room id, 'other', or '' (nothing chosen). */
  class_room_id: string;
  class_room_other: string;
  /** A new contestant: the parent confirms the child's agreement (unticked at first). */
  child_consent: boolean;
  /** The consent to publish the child's name on the winners' list (issue 37.2): unticked at first, changeable at any time. */
  publish_name: boolean;
  /** Carried into a new season a grade up: the class is asked again (issue 26). */
  class_pending?: boolean;
  /** The catalogue moved to a new map (decision 038): what became of the child's school, shown, never sent. */
  school_notice?: string;
}

export interface ProfileFormValues {
  childrens: ContestantFormValues[];
}

export const emptyContestant = (): ContestantFormValues => ({
  locked: false,
  fullname: '',
  district_id: '',
  school_id: '',
  class_group_id: '',
  class_room_id: '',
  class_room_other: '',
  child_consent: false,
  publish_name: NAME_CONSENT_DEFAULT,
});

export function toFormValues(childrens: Contestant[]): ProfileFormValues {
  return {
    childrens: childrens.length
      ? childrens.map((c) => ({
          id: c.id,
          locked: c.exams.length > 0,
          fullname: c.fullname,
          district_id: String(c.district_id),
          school_id: String(c.school_id),
          class_group_id: String(c.class_group_id),
          // A child a grade up in a new season: no class chosen yet, the parent picks it again.
          class_room_id: c.class_pending ? '' : String(c.class_room_id),
          class_room_other: c.class_room_other ?? '',
          child_consent: false,
          publish_name: c.publish_name,
          class_pending: c.class_pending ?? false,
          school_notice: c.school_notice,
        }))
      : // A new parent starts with one empty card to fill in.
        [emptyContestant()],
  };
}

/**
 * The request of POST /api/customer/profile. A locked contestant is sent exactly as the server
 * gave it (its inputs are disabled, and disabled inputs have no form value).
 */
export function toRequest(phone: string, values: ProfileFormValues, saved: Contestant[]): ProfileUpdateRequest {
  return {
    phone,
    childrens: values.childrens.map((child) => {
      const original = child.id === undefined ? undefined : saved.find((c) => c.id === child.id);
      if (original && child.locked) {
        const { id, fullname, district_id, school_id, class_group_id, class_room_id, class_room_other } = original;
        // The consent to publish the name is not locked by an exam: it goes as the parent set it.
        return { id, fullname, district_id, school_id, class_group_id, class_room_id, class_room_other, publish_name: child.publish_name === true };
      }
      return {
        ...(child.id === undefined ? {} : { id: child.id }),
        fullname: child.fullname ?? '',
        district_id: child.district_id ?? '',
        school_id: child.school_id ?? '',
        class_group_id: child.class_group_id ?? '',
        class_room_id: child.class_room_id ?? '',
        class_room_other: child.class_room_id === CLASS_ROOM_OTHER ? (child.class_room_other ?? '') : null,
        ...(child.id === undefined ? { child_consent: child.child_consent === true } : {}),
        publish_name: child.publish_name === true,
      };
    }),
  };
}

/** Validates with the shared schema the server uses; errors land on 'childrens.<i>.<field>'. */
export function profileResolver(phone: string, saved: () => Contestant[]): Resolver<ProfileFormValues> {
  return async (values, _context, options) => {
    const result = profileUpdateRequestSchema.safeParse(toRequest(phone, values, saved()));
    if (result.success) return { values, errors: {} };
    const flat: FieldErrors = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      flat[path] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}
