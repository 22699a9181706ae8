// The catalog area's public module: what the shell (../routes.ts) and other code import of it.
export { registerAdminCatalogRoutes } from './routes';
export { classRoomsTemplateExamples } from './imports';
