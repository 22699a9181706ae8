// The privacy area's public module: what the shell (../routes.ts) and other code import of it.
export { registerAdminPrivacyRoutes } from './routes';
