// The news area's public module: what the shell (../routes.ts) and other code import of it.
export { registerAdminNewsRoutes } from './routes';
