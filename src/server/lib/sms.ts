/** Sends one text message. Implementations: features/auth/sms-drivers.ts. */
export interface SmsSender {
  /**
   * `requestId`: the same for every try of one message (eSMS's RequestId), so that a gateway that
   * already took it can refuse the repeat; none for a one-time code (each is a new message).
   */
  send(phone: string, message: string, options?: { requestId?: string }): Promise<void>;
}
