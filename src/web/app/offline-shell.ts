// The service worker that keeps the exam screen's shell for a reload without network (public/sw.js,
// issue 24.8, docs/decisions/019). Only in the built app (the dev server's files are not the
// build's). The files this page loaded before the worker controlled it (a first visit) are handed
// to it, so that the exam screen opened now can be shown again offline.
export function registerOfflineShell() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const handOver = (worker: ServiceWorker | null | undefined) => {
    const keep = performance.getEntriesByType('resource').map((entry) => entry.name);
    worker?.postMessage({ keep });
  };
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => handOver(registration.active))
      .catch(() => undefined); // No worker (private mode, an old browser): pages work as before.
  });
  navigator.serviceWorker.addEventListener('controllerchange', () => handOver(navigator.serviceWorker.controller));
}
