// Login and register for someone already logged in: a notice, then /tai-khoan (a viewer's figures) after 1 s
// (spec sections 2 and 9). Decided once on arrival, so a login made on this page does not
// count as "already logged in".
import { useEffect, useRef } from 'react';
import { accountMessages } from '../../../shared/messages';
import { REDIRECT_LOGGED_IN_MS } from '../../../shared/rules';
import { notify } from '../../components/ui/notices';
import { useNavigate } from '../../lib/router';
import { accountPathOf, getSession, roleOf } from '../../lib/session';

export function useRedirectIfLoggedIn(): boolean {
  const navigate = useNavigate();
  const loggedInOnArrival = useRef(getSession() !== null);
  // Refs survive React's development double-run of effects: one notice, not two.
  const noticeShown = useRef(false);
  useEffect(() => {
    if (!loggedInOnArrival.current) return;
    if (!noticeShown.current) {
      noticeShown.current = true;
      notify('info', accountMessages.alreadyLoggedIn, undefined, REDIRECT_LOGGED_IN_MS);
    }
    const timer = setTimeout(() => navigate(accountPathOf(roleOf(getSession())), { replace: true }), REDIRECT_LOGGED_IN_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return loggedInOnArrival.current;
}
