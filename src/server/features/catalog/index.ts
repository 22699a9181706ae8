// What other features may use of the public catalogue (lint: features import each other only through index.ts).
export { listBooksOfGroup } from './repo';
