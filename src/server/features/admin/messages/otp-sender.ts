// The one-time codes by Zalo ZNS first, behind a setting (ZNS_OTP_TEMPLATE_ID): a code goes as the
// approved template with its parameter `otp`; when ZNS refuses it (no Zalo account...) or does not
// answer, the usual SMS goes instead. Every other message, and every code without the setting,
// goes by SMS as before.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { SmsSender } from '../../../lib/sms';
import { maskPhone } from '../../../../shared/privacy';
import type { ZnsSender } from './zns-driver';

export function createOtpZnsFirstSender(sms: SmsSender, zns: ZnsSender | undefined, templateId: string, logger: Pick<FastifyBaseLogger, 'warn'>): SmsSender {
  if (!zns || !templateId) return sms;
  return {
    async send(phone, message, options) {
      if (options?.otpCode) {
        try {
          return await zns.send({ phone, templateId, params: { otp: options.otpCode }, trackingId: randomUUID() });
        } catch (error) {
          logger.warn({ phone: maskPhone(phone), reason: error instanceof Error ? error.message : String(error) }, 'one-time code: ZNS did not take it, sending the SMS');
        }
      }
      return sms.send(phone, message, options);
    },
  };
}
