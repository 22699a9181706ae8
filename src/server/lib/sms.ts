/** Sends one text message. Implementations: features/auth/sms-drivers.ts. */
export interface SmsSender {
  send(phone: string, message: string): Promise<void>;
}
