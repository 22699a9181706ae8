// Protected screens check for themselves (spec section 6): without a session, an error notice
// and a redirect to /dang-nhap after 1.5 s.
import { useEffect } from 'react';
import { useNavigate } from './router';
import { messages } from '../../shared/messages';
import { NOTICE_MS } from '../../shared/rules';
import { notify } from '../components/ui/notices';
import { useSession, type Session } from './session';

export function useRequireAuth(message: string = messages.pleaseLogin): Session | null {
  const session = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    if (session) return;
    notify('error', message);
    const timer = setTimeout(() => navigate('/dang-nhap'), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [session, message, navigate]);
  return session;
}
