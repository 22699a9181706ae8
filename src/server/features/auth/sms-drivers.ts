// SMS drivers. `log` writes each message to the server log and to <DATA_DIR>/sms-outbox.jsonl.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { SmsSender } from '../../lib/sms';

export function createLogSmsSender(dataDir: string, logger: Pick<FastifyBaseLogger, 'info'>, now = () => new Date()): SmsSender {
  const outbox = join(dataDir, 'sms-outbox.jsonl');
  return {
    async send(phone, message) {
      logger.info({ phone, sms: message }, 'SMS (log driver)');
      await mkdir(dataDir, { recursive: true });
      await appendFile(outbox, JSON.stringify({ phone, message, created_at: now().toISOString() }) + '\n');
    },
  };
}

export function createSmsSender(config: Config, logger: FastifyBaseLogger): SmsSender {
  switch (config.sms.driver) {
    case 'log':
      return createLogSmsSender(config.dataDir, logger);
    default:
      throw new Error(`SMS driver not available: ${config.sms.driver}`);
  }
}
