// SMS drivers. `log` writes each message to the server log and to <DATA_DIR>/sms-outbox.jsonl;
// `esms` sends through eSMS.vn's public HTTP API (brand-name OTP messages).
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { SmsSender } from '../../lib/sms';
import { maskPhone } from '../../../shared/privacy';

/** The gateway did not accept the message (refused, unreachable or too slow). */
export class SmsDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SmsDeliveryError';
  }
}

export function createLogSmsSender(dataDir: string, logger: Pick<FastifyBaseLogger, 'info'>, now = () => new Date()): SmsSender {
  const outbox = join(dataDir, 'sms-outbox.jsonl');
  return {
    async send(phone, message, options) {
      // The text (with its code) goes to the outbox file only; the log gets the masked phone.
      logger.info({ phone: maskPhone(phone) }, 'SMS (log driver): written to sms-outbox.jsonl');
      await mkdir(dataDir, { recursive: true });
      await appendFile(outbox, JSON.stringify({ phone, message, created_at: now().toISOString(), ...(options?.requestId ? { request_id: options.requestId } : {}) }) + '\n');
    },
  };
}

export interface EsmsOptions {
  apiKey: string;
  secretKey: string;
  brandName: string;
  /** e.g. https://rest.esms.vn/MainService.svc/json */
  baseUrl: string;
  timeoutMs: number;
}

/** eSMS answers CodeResult "100" when it accepted the message; anything else is a refusal. */
const ESMS_ACCEPTED = '100';
/** SmsType 2: brand-name customer-care message (the type OTP templates are registered under). */
const ESMS_BRAND_NAME_CARE = '2';

export function createEsmsSender(options: EsmsOptions, logger: Pick<FastifyBaseLogger, 'info' | 'warn'>): SmsSender {
  const endpoint = `${options.baseUrl.replace(/\/$/, '')}/SendMultipleMessage_V4_post_json/`;
  return {
    async send(phone, message, sendOptions) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            ApiKey: options.apiKey,
            SecretKey: options.secretKey,
            Phone: phone,
            Content: message,
            Brandname: options.brandName,
            SmsType: ESMS_BRAND_NAME_CARE,
            // The partner's id of the request: one per message, the same on every try of it.
            ...(sendOptions?.requestId ? { RequestId: sendOptions.requestId } : {}),
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        logger.warn({ err: error, phone: maskPhone(phone) }, 'eSMS unreachable');
        throw new SmsDeliveryError('eSMS unreachable or too slow', { cause: error });
      }
      let body: { CodeResult?: unknown; ErrorMessage?: unknown; SMSID?: unknown } | undefined;
      try {
        body = (await response.json()) as typeof body;
      } catch (error) {
        logger.warn({ status: response.status, phone: maskPhone(phone) }, 'eSMS answered something other than JSON');
        throw new SmsDeliveryError(`eSMS answered HTTP ${response.status} without JSON`, { cause: error });
      }
      const code = String(body?.CodeResult ?? '');
      if (!response.ok || code !== ESMS_ACCEPTED) {
        logger.warn({ status: response.status, code, error: body?.ErrorMessage, phone: maskPhone(phone) }, 'eSMS refused the message');
        throw new SmsDeliveryError(`eSMS refused the message (HTTP ${response.status}, CodeResult ${code || 'none'})`);
      }
      // The message text holds a one-time code: it is not logged.
      logger.info({ phone: maskPhone(phone), smsId: body?.SMSID }, 'SMS sent through eSMS');
    },
  };
}

export function createSmsSender(config: Config, logger: FastifyBaseLogger): SmsSender {
  switch (config.sms.driver) {
    case 'log':
      return createLogSmsSender(config.dataDir, logger);
    case 'esms':
      return createEsmsSender({ ...config.sms.esms, timeoutMs: config.sms.timeoutMs }, logger);
    default:
      throw new Error(`SMS driver not available: ${String(config.sms.driver)}`);
  }
}
