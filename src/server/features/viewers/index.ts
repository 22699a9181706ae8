// The education offices' read-only area's public module (issue 41): what the app and other code import of it.
export { registerViewerRoutes } from './routes';
