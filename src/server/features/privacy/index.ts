// What other features may use of personal data (lint: features import each other only through index.ts).
export { eraseAccounts } from './erase';
export { accountsPastRetention, currentRetention } from './retention';
export { loadMyData } from './service';
