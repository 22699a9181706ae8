// What other features may use of the certificates (lint: features import each other only through index.ts).
export { MAX_RENDER_ATTEMPTS, recheckCertificates } from './background';
export type { CertificateContent } from './content';
export { contestantCertificates, reissueCertificate, resultsHeldMessage, schoolPrizeCertificate } from './service';
// The certificates' fonts (Be Vietnam Pro, in subset runs) for the back office's other printed lists.
export { pdfkitDocument, runWidth, textRuns, textWidth, type Weight } from './fonts';
export { CERTIFICATE_IMAGE_MAX_BYTES, listCertificateImages, saveCertificateImage } from './images';
export { bundleFile, buildNextBundle, getBundle, listBundles, requestBundle } from './bundle';
