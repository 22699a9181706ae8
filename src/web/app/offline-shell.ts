// The service worker that keeps the exam screen's shell for a reload without network (public/sw.js,
// issue 24.8, docs/decisions/019). Only in the built app (the dev server's files are not the
// build's). The files this page loaded before the worker controlled it (a first visit) are handed
// to it, so that the exam screen opened now can be shown again offline: those loaded so far when
// the worker is ready, and every one finished afterwards (a lazy chunk asked for before the worker
// took over may arrive after it did, without passing through it).
export function registerOfflineShell() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  let worker: ServiceWorker | null | undefined;
  // Only the build's files: the exam's own API calls (a save every few seconds) never wake the worker.
  const handOver = (urls: string[]) => {
    const assets = urls.filter((url) => new URL(url, location.href).pathname.startsWith('/assets/'));
    if (assets.length > 0) worker?.postMessage({ keep: assets });
  };
  const loadedSoFar = () => performance.getEntriesByType('resource').map((entry) => entry.name);
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        worker = navigator.serviceWorker.controller ?? registration.active;
        handOver(loadedSoFar());
        if (typeof PerformanceObserver === 'function') {
          new PerformanceObserver((list) => handOver(list.getEntries().map((entry) => entry.name))).observe({ type: 'resource' });
        }
      })
      .catch(() => undefined); // No worker (private mode, an old browser): pages work as before.
  });
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    worker = navigator.serviceWorker.controller;
    handOver(loadedSoFar());
  });
}
