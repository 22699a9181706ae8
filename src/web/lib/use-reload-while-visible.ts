// Live figures (the organiser's dashboard, the education offices' participation): load again
// `intervalMs` after each answer while the tab is visible; paused while it is hidden and loaded at
// once when it shows again, so a tab left open in the background costs the server nothing.
import { useEffect } from 'react';

/** `loading` and `reload` of a useData/useApiData state. */
export function useReloadWhileVisible({ loading, reload }: { loading: boolean; reload: () => void }, intervalMs: number) {
  useEffect(() => {
    if (loading) return;
    let timer = document.visibilityState === 'visible' ? setTimeout(reload, intervalMs) : undefined;
    const onVisibility = () => {
      clearTimeout(timer);
      timer = undefined;
      if (document.visibilityState === 'visible') reload();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [loading, reload, intervalMs]);
}
