// What other features may use of the winners' list (lint: features import each other only through index.ts).
export { ceremonyWinners } from './service';
export { publishedAt, scopedPrizeRows, type ScopedPrizeDbRow } from './repo';
export { shownName } from './service';
