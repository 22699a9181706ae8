// Starting a practice round from a button (the offer on /du-thi, "again" on a round's result): the
// round opens on success; a refusal is a notice and the button is given back.
import { useState } from 'react';
import { practiceMessages } from '../../../../shared/messages';
import { notify } from '../../../components/ui/notices';
import { useNavigate } from '../../../lib/router';
import { practicePath, startPractice } from './practice-api';

export function useStartPractice() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const start = async (childId: number) => {
    setBusy(true);
    try {
      const started = await startPractice(childId);
      notify('success', started.message);
      navigate(practicePath(started.slug));
    } catch (error) {
      setBusy(false);
      notify('error', error instanceof Error ? error.message : practiceMessages.loadStatusFailed);
    }
  };
  return { start, busy };
}
