/** Sends one text message. Implementations: features/auth/sms-drivers.ts. */
export interface SmsSender {
  /**
   * `requestId`: the same for every try of one message (eSMS's RequestId), so that a gateway that
   * already took it can refuse the repeat; none for a one-time code (each is a new message).
   * `otpCode`: the message carries this one-time code (a sender may deliver it another way, e.g.
   * a Zalo ZNS template, features/admin/messages/otp-sender.ts).
   */
  send(phone: string, message: string, options?: { requestId?: string; otpCode?: string }): Promise<void>;
}
