// /tai-khoan: the account and, for parents, up to 3 contestants saved together with 'Hoàn thành'.
// School administrators (and organisers) see their account only.
import { useCallback, useEffect, useRef, useState } from 'react';
import { FormProvider, useFieldArray, useForm } from 'react-hook-form';
import { seasonMessages } from '../../../shared/messages/seasons';
import { accountMessages, messages } from '../../../shared/messages';
import { MAX_CONTESTANTS_PER_ACCOUNT, NOTICE_MS } from '../../../shared/rules';
import type { ClassGroup } from '../../../shared/schemas/catalog';
import type { Contestant, Profile, ProfileResponse, ProfileUpdateResponse } from '../../../shared/schemas/profile';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { notify } from '../../components/ui/notices';
import { api, ApiRequestError } from '../../lib/api-client';
import { updateSessionUser } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { AccountSideMenu } from '../../components/account-side-menu';
import { useRequireAuth } from '../../lib/use-require-auth';
import { ContestantCard } from './contestant-card';
import { MyDataSection } from './my-data-section';
import { PrivacyConsentDialog } from './privacy-consent-dialog';
import { useOptions } from './catalog-options';
import { emptyContestant, profileResolver, toFormValues, toRequest, type ProfileFormValues } from './profile-form-values';
import './profile.css';

export function ProfilePage() {
  const session = useRequireAuth(messages.pleaseLoginForProfile);
  const [profile, setProfile] = useState<Profile>();
  const isParent = profile ? profile.role === 'parent' : session?.user.is_admin_school !== 1;
  usePageTitle(isParent ? 'Thông tin đăng ký thí sinh dự thi' : 'Thông tin tài khoản');
  const userId = session?.user.id;

  useEffect(() => {
    if (userId === undefined) return;
    const controller = new AbortController();
    api.get<ProfileResponse>('/profile', { signal: controller.signal }).then(
      (response) => setProfile(response.data),
      // Load errors are only logged (spec section 8); a 401 is not one: it ends the session and the
      // guard above sends the visitor to the login page (a logout tapped while this page loaded).
      (error: unknown) => controller.signal.aborted || (error instanceof ApiRequestError && error.status === 401) || console.warn('Không tải được thông tin tài khoản', error),
    );
    return () => controller.abort();
  }, [userId]);

  if (!session) return <div className="container page" />;
  return (
    <div className="container page with-side">
      <AccountSideMenu showExamLink={isParent} />
      <div className="profile-main" aria-busy={!profile}>
        <h1>{isParent ? 'Thông tin đăng ký thí sinh dự thi' : 'Thông tin tài khoản'}</h1>
        {profile && (isParent ? <ParentProfile profile={profile} onSaved={setProfile} /> : <AccountOnly profile={profile} />)}
        {profile?.role === 'parent' && <MyDataSection />}
        {profile?.privacy_consent_required && (
          <PrivacyConsentDialog onAgreed={() => setProfile({ ...profile, privacy_consent_required: false })} />
        )}
      </div>
    </div>
  );
}

function AccountOnly({ profile }: { profile: Profile }) {
  return (
    <section className="card profile-account">
      {profile.is_admin_school === 1 && <p className="alert">{messages.schoolAdminNote}</p>}
      <dl>
        <dt>Số điện thoại</dt>
        <dd>{profile.phone}</dd>
        {profile.name && (
          <>
            <dt>Tên tài khoản</dt>
            <dd>{profile.name}</dd>
          </>
        )}
        {profile.school && (
          <>
            <dt>Trường</dt>
            <dd>{profile.school.name}</dd>
            <dt>Địa chỉ</dt>
            <dd>{profile.school.address}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

function ParentProfile({ profile, onSaved }: { profile: Profile; onSaved: (profile: Profile) => void }) {
  const districts = useOptions('/districts');
  const classGroups = useOptions<ClassGroup>('/class-groups');
  // The resolver reads the saved contestants at validation time (locked ones are sent as saved).
  const saved = useRef<Contestant[]>(profile.childrens);
  saved.current = profile.childrens;
  const savedContestants = useCallback(() => saved.current, []);
  const [resolver] = useState(() => profileResolver(profile.phone, savedContestants));
  const form = useForm<ProfileFormValues>({ resolver, defaultValues: toFormValues(profile.childrens) });
  // keyName: the contestants carry their own `id`, which must not be overwritten by the list's keys.
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'childrens', keyName: 'key' });

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        const response = await api.post<ProfileUpdateResponse>('/customer/profile', toRequest(profile.phone, values, saved.current));
        updateSessionUser(response.user);
        onSaved(response.data);
        form.reset(toFormValues(response.data.childrens));
        notify('success', messages.profileSaved, undefined, NOTICE_MS);
      } catch (error) {
        if (error instanceof ApiRequestError) {
          for (const [key, message] of Object.entries(error.errors)) {
            if (/^childrens\.\d+\.[a-z_]+$/.test(key)) form.setError(key as `childrens.${number}.fullname`, { type: 'server', message });
          }
        }
        notify('error', messages.profileSaveFailedTitle, error instanceof Error ? error.message : undefined, NOTICE_MS);
      }
    },
    () => notify('error', messages.checkContestants, undefined, NOTICE_MS),
  );

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate>
        {profile.childrens.some((child) => child.class_pending) && (
          <p className="alert alert-warning" role="status">
            {seasonMessages.newSeasonBanner}
          </p>
        )}
        <section className="card profile-account">
          <TextField label="Số điện thoại" type="tel" value={profile.phone} readOnly hint={accountMessages.phoneReadOnly} />
        </section>
        {profile.finished_childrens && profile.finished_childrens.length > 0 && (
          <section className="card profile-finished" aria-labelledby="profile-finished-title">
            <h2 id="profile-finished-title">{seasonMessages.finishedTitle}</h2>
            <ul>
              {profile.finished_childrens.map((child) => (
                <li key={`${child.fullname}-${child.season}`}>
                  {child.fullname}: {seasonMessages.finished} ({child.season})
                </li>
              ))}
            </ul>
          </section>
        )}
        <div className="contestant-list">
          {fields.map((field, index) => (
            <ContestantCard
              key={field.key}
              index={index}
              districts={districts.items}
              classGroups={classGroups.items}
              onDelete={index === 0 || field.locked ? undefined : () => remove(index)}
            />
          ))}
        </div>
        <div className="profile-actions">
          {fields.length < MAX_CONTESTANTS_PER_ACCOUNT && (
            <Button variant="outline" onClick={() => append(emptyContestant(), { shouldFocus: false })}>
              Thêm thí sinh
            </Button>
          )}
          <Button type="submit" variant="accent" disabled={form.formState.isSubmitting}>
            Hoàn thành
          </Button>
        </div>
        <p className="muted">{accountMessages.tooManyContestants}</p>
      </form>
    </FormProvider>
  );
}
