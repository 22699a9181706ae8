// Zalo ZNS (Zalo Notification Service) drivers. `zalo` sends an approved template with its
// parameters through the Official Account's API; `log` writes each message to the server log and
// to <DATA_DIR>/zns-outbox.jsonl (development and the demo: every phone "has Zalo").
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config';
import { maskPhone } from '../../../../shared/privacy';

export interface ZnsMessage {
  phone: string;
  templateId: string;
  params: Record<string, string>;
  /** The same on every try of one message (ZNS's tracking_id). */
  trackingId: string;
}

export interface ZnsSender {
  /** Resolves when ZNS took the message; throws ZnsRefusal (send an SMS instead) or ZnsUnreachable (try again later). */
  send(message: ZnsMessage): Promise<void>;
}

/** ZNS answered and did not take the message (no Zalo account, a template refused, the quota...): the SMS goes instead. */
export class ZnsRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZnsRefusal';
  }
}

/** ZNS did not answer (network, timeout, a 5xx): the message is tried again later. */
export class ZnsUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ZnsUnreachable';
  }
}

/** 0987654321 -> 84987654321: ZNS takes the international form without '+'. */
export const znsPhone = (phone: string) => phone.replace(/^0/, '84');

export function createLogZnsSender(dataDir: string, logger: Pick<FastifyBaseLogger, 'info'>, now = () => new Date()): ZnsSender {
  const outbox = join(dataDir, 'zns-outbox.jsonl');
  return {
    async send(message) {
      logger.info({ phone: maskPhone(message.phone), template: message.templateId }, 'ZNS (log driver): written to zns-outbox.jsonl');
      await mkdir(dataDir, { recursive: true });
      await appendFile(outbox, JSON.stringify({ phone: message.phone, template_id: message.templateId, params: message.params, tracking_id: message.trackingId, created_at: now().toISOString() }) + '\n');
    },
  };
}

export interface ZaloZnsOptions {
  accessToken: string;
  /** e.g. https://business.openapi.zalo.me */
  baseUrl: string;
  timeoutMs: number;
}

export function createZaloZnsSender(options: ZaloZnsOptions, logger: Pick<FastifyBaseLogger, 'info' | 'warn'>): ZnsSender {
  const endpoint = `${options.baseUrl.replace(/\/$/, '')}/message/template`;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', access_token: options.accessToken },
          body: JSON.stringify({ phone: znsPhone(message.phone), template_id: message.templateId, template_data: message.params, tracking_id: message.trackingId }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        logger.warn({ err: error, phone: maskPhone(message.phone) }, 'ZNS unreachable');
        throw new ZnsUnreachable('ZNS unreachable or too slow', { cause: error });
      }
      if (response.status >= 500) throw new ZnsUnreachable(`ZNS answered HTTP ${response.status}`);
      let body: { error?: unknown; message?: unknown; data?: { msg_id?: unknown } } | undefined;
      try {
        body = (await response.json()) as typeof body;
      } catch (error) {
        throw new ZnsUnreachable(`ZNS answered HTTP ${response.status} without JSON`, { cause: error });
      }
      // error 0: taken; anything else is ZNS's refusal, with its reason (e.g. -118 "Zalo account not existed").
      if (!response.ok || Number(body?.error) !== 0) {
        const reason = `ZNS ${String(body?.error ?? response.status)}: ${String(body?.message ?? '').slice(0, 200)}`;
        logger.warn({ status: response.status, reason, phone: maskPhone(message.phone) }, 'ZNS refused the message');
        throw new ZnsRefusal(reason);
      }
      logger.info({ phone: maskPhone(message.phone), msgId: body?.data?.msg_id }, 'ZNS message sent');
    },
  };
}

/** The configured ZNS driver; none when ZNS is off. */
export function createZnsSender(config: Config, logger: FastifyBaseLogger): ZnsSender | undefined {
  const zns = config.messages.zns;
  if (zns.driver === 'log') return createLogZnsSender(config.dataDir, logger);
  if (zns.driver === 'zalo') return createZaloZnsSender({ accessToken: zns.accessToken, baseUrl: zns.baseUrl, timeoutMs: config.sms.timeoutMs }, logger);
  return undefined;
}
