// The regrade area's public module: what the shell (../routes.ts) and other code import of it.
export { registerAdminRegradeRoutes } from './routes';
