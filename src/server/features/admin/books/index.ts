// The books area's public module: what the shell (../routes.ts) and other code import of it.
export { registerAdminBooksRoutes } from './routes';
export { NO_COVER_IMAGE } from './service';
