// The messages area's public module: what the shell (../routes.ts), app.ts and main.ts import of it.
export { registerAdminMessagesRoutes, registerOptOutRoutes } from './routes';
export { startMessageDelivery } from './delivery';
export { createZnsSender } from './zns-driver';
export { createOtpZnsFirstSender } from './otp-sender';
