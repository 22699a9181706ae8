// What other features may use of auth (lint: features import each other only through index.ts).
export { checkOtp, issueOtp } from './otp';
export { consumeOtp } from './repo';
export { createResetLink, createResetLinks, RESET_LINK_DEFAULT_HOURS } from './reset-links';
export { toApiUser } from './user-view';
