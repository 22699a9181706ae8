// Asked when the parent has not agreed to the current privacy notice (a new version, or an
// account made before consent was asked): the profile is usable again once they agree.
// Only on /tai-khoan: a running exam is never interrupted.
import { useState } from 'react';
import { privacyMessages } from '../../../shared/messages';
import { NOTICE_MS } from '../../../shared/rules';
import type { ConsentResponse } from '../../../shared/schemas/privacy';
import { Button } from '../../components/ui/button';
import { CheckboxField } from '../../components/ui/checkbox-field';
import { Modal } from '../../components/ui/modal';
import { notify } from '../../components/ui/notices';
import { api } from '../../lib/api-client';
import { errorMessage } from '../../lib/server-errors';

export function PrivacyConsentDialog({ onAgreed }: { onAgreed: () => void }) {
  const [ticked, setTicked] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const agree = async () => {
    if (!ticked) return setError(privacyMessages.consentRequired);
    setBusy(true);
    try {
      const response = await api.post<ConsentResponse>('/privacy/consent', { consent: true });
      notify('success', response.message, undefined, NOTICE_MS);
      onAgreed();
    } catch (failure) {
      notify('error', errorMessage(failure) ?? privacyMessages.consentRequired, undefined, NOTICE_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    // Closing without an answer is not offered: the parent agrees, or leaves the page.
    <Modal
      title={privacyMessages.newNoticeTitle}
      onClose={() => undefined}
      role="alertdialog"
      actions={
        <Button onClick={agree} disabled={busy}>
          Đồng ý và tiếp tục
        </Button>
      }
    >
      <p>
        {privacyMessages.newNoticeText}{' '}
        <a href="/chinh-sach-bao-mat" target="_blank" rel="noopener">
          Đọc Chính sách bảo mật
        </a>
      </p>
      <CheckboxField
        label={privacyMessages.consentLabel}
        checked={ticked}
        onChange={(event) => {
          setTicked(event.target.checked);
          setError(undefined);
        }}
        error={error}
      />
    </Modal>
  );
}
