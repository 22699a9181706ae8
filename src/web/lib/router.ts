// The router API the screens use (wouter: ~2 KB, which keeps the home page in its JS budget).
import { useCallback } from 'react';
import { useLocation, useParams as useWouterParams } from 'wouter';

export { Link, Redirect } from 'wouter';

/** navigate('/tai-khoan') or navigate('/404', { replace: true }) */
export function useNavigate() {
  const [, setLocation] = useLocation();
  return useCallback((to: string, options?: { replace?: boolean }) => setLocation(to, options), [setLocation]);
}

export function useParams<T extends Record<string, string | undefined>>(): T {
  return useWouterParams() as unknown as T;
}

export function usePathname(): string {
  return useLocation()[0];
}
