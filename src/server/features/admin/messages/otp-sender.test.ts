import { describe, expect, it } from 'vitest';
import { createOtpZnsFirstSender } from './otp-sender';
import { ZnsRefusal, type ZnsMessage } from './zns-driver';

const silent = { warn: () => {} };

describe('one-time codes by ZNS first', () => {
  it('sends a code by the ZNS template, the SMS only when ZNS refuses it', async () => {
    const sms: string[] = [];
    const zns: ZnsMessage[] = [];
    const refusing = new Set(['0900000002']);
    const sender = createOtpZnsFirstSender(
      { send: async (phone) => void sms.push(phone) },
      {
        send: async (message) => {
          if (refusing.has(message.phone)) throw new ZnsRefusal('ZNS -118: Zalo account not existed');
          zns.push(message);
        },
      },
      '4321',
      silent,
    );
    await sender.send('0900000001', 'Ma xac thuc: 123456', { otpCode: '123456' });
    await sender.send('0900000002', 'Ma xac thuc: 654321', { otpCode: '654321' });
    await sender.send('0900000003', 'Tin khac');
    expect(zns).toMatchObject([{ phone: '0900000001', templateId: '4321', params: { otp: '123456' } }]);
    expect(sms).toEqual(['0900000002', '0900000003']);
  });

  it('is the SMS sender itself without the setting', () => {
    const sms = { send: async () => {} };
    expect(createOtpZnsFirstSender(sms, { send: async () => {} }, '', silent)).toBe(sms);
  });
});
