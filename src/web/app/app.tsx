import { useEffect } from 'react';
import { Router } from 'wouter';
import { forgetPageDataUnless } from '../lib/page-data';
import { usePathname } from '../lib/router';
import { Layout } from './layout';

/** `ssrPath`: the page drawn at build time (prerender.tsx); in the browser, the address bar's. */
export function App({ ssrPath }: { ssrPath?: string }) {
  // Said on <html> once the app handles taps and forms (after taking over a prerendered page too).
  useEffect(() => {
    document.documentElement.dataset.appStarted = '';
  }, []);
  return (
    <Router ssrPath={ssrPath}>
      <ForgetPageDataOnNavigation />
      <Layout />
    </Router>
  );
}

function ForgetPageDataOnNavigation() {
  const pathname = usePathname();
  useEffect(() => forgetPageDataUnless(pathname), [pathname]);
  return null;
}
