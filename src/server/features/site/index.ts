// What other features may use of the site settings (lint: features import each other only through index.ts).
export { loadFooter, saveFooter } from './repo';
