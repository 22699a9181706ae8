// Computing, storing and publishing a contest's results (the ranking rules are core/ranking). What
// other features may use (lint: features import each other only through index.ts).
export { computeResults, lockContestResults, publishResults, resultsPublished, storedTies, type ComputeProgress } from './compute';
