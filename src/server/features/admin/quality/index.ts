// The quality area's public module: what the shell (../routes.ts) and other code import of it.
export { registerAdminQualityRoutes } from './routes';
export { forgetCounts } from './repo';
