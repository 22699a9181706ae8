// Browser tests need Debian's Chromium in its headless shell build (chromium-headless-shell: the
// build Playwright itself runs headless tests in, at half the CPU of the full browser in its new
// headless mode, and the 2-core test loop is bound by CPU: issue 39); the certificate test reads
// the downloaded PDF with poppler's pdftotext/pdfinfo/pdftoppm and its QR code with zbar's zbarimg
// (issue 37). Installs what is missing on a fresh machine (as root).
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
const missing = [
  [chromium, process.env.CHROMIUM_PATH ? 'chromium' : 'chromium-headless-shell'],
  ['/usr/bin/pdftotext', 'poppler-utils'],
  ['/usr/bin/zbarimg', 'zbar-tools'],
]
  .filter(([path]) => !existsSync(path))
  .map(([, debianPackage]) => debianPackage);

if (missing.length > 0) {
  if (process.getuid?.() !== 0) {
    console.error(`Missing for the browser tests: ${missing.join(', ')}. Install Debian's packages: sudo apt-get install -y ${missing.join(' ')}`);
    process.exit(1);
  }
  console.log(`Installing Debian's ${missing.join(' and ')} for the browser tests...`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`, { stdio: 'inherit' });
}
