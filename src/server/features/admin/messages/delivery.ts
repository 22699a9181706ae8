// The delivery worker of an app process: pg-boss hands it one recipient's job at a time; it claims
// the recipient in a transaction (status 'sending' until its lease), asks the gateway, then marks
// the answer. A job of a process that died mid-send is retried by pg-boss after its lease; the
// retry finds the recipient 'sending' with its lease passed and sends again with the same
// idempotency key (eSMS RequestId, ZNS tracking_id): at least once towards the gateway, which
// refuses a key it has seen, so that a family gets the message once (decision 040).
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../../../config';
import type { Db } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import type { SmsSender } from '../../../lib/sms';
import type { Channel } from '../../../../shared/schemas/admin-messages';
import { DELIVERY_QUEUE, DELIVERY_TRIES, messageQueue, type DeliveryJob } from './queue';
import { inQuietHours, nextDayMorning, nextSendingTime, vietnamDay } from './rules';
import { optOutLink } from './service';
import { withOptOutLink } from '../../../../shared/sms-segments';
import { ZnsRefusal, type ZnsSender } from './zns-driver';

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  config: Config;
  sms: SmsSender;
  zns?: ZnsSender;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** Spaces the calls of one channel in this process: at most `perSecond` a second. */
function spacing(perSecond: number) {
  let next = 0;
  return async () => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + 1000 / perSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
}

/** Takes one message of today's cap of a channel (shared by every process); false when the cap is reached. */
async function takeFromCap(db: Db, channel: Channel, day: string): Promise<boolean> {
  const taken = await sql<{ sent: number }>`
    INSERT INTO message_daily_counts AS d (day, channel, sent)
    SELECT ${day}::date, ${channel}, 1 FROM message_settings s WHERE (CASE ${channel} WHEN 'sms' THEN s.sms_daily_cap ELSE s.zns_daily_cap END) > 0
    ON CONFLICT (day, channel) DO UPDATE SET sent = d.sent + 1
      WHERE d.sent < (SELECT CASE ${channel} WHEN 'sms' THEN sms_daily_cap ELSE zns_daily_cap END FROM message_settings)
    RETURNING d.sent`.execute(db);
  return taken.rows.length > 0;
}

type Claim =
  | { kind: 'done' }
  | { kind: 'later'; at: Date }
  | { kind: 'send'; phone: string; channel: Channel; body: string; link: string; templateId: string; params: Record<string, string>; attempts: number };

/** Decides in one transaction what to do with a recipient now, and claims it when it is to be sent. */
async function claim(deps: DeliveryDeps, recipientId: number): Promise<Claim> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('message_recipients as r')
      .innerJoin('message_campaigns as c', 'c.id', 'r.campaign_id')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .leftJoin('message_opt_outs as o', 'o.user_id', 'r.user_id')
      .select(['r.status', 'r.lease_until', 'u.phone', 'u.deleted_at', 'r.attempts', 'c.channel', 'c.body', 'c.urgent', 'c.zns_template_id', 'c.zns_params', 'o.token', 'o.opted_out_at'])
      .where('r.id', '=', recipientId)
      .forUpdate('r')
      .executeTakeFirst();
    if (!row || !(row.status === 'waiting' || row.status === 'sending')) return { kind: 'done' };
    // Another process holds it and may be talking to the gateway: its lease is waited out.
    if (row.status === 'sending' && row.lease_until && row.lease_until > now) return { kind: 'later', at: row.lease_until };
    if (row.deleted_at) {
      await trx.updateTable('message_recipients').set({ status: 'failed', reason: 'Tài khoản đã bị xoá', lease_until: null }).where('id', '=', recipientId).execute();
      return { kind: 'done' };
    }
    if (row.opted_out_at) {
      await trx.updateTable('message_recipients').set({ status: 'opted_out', lease_until: null }).where('id', '=', recipientId).execute();
      return { kind: 'done' };
    }
    if (!row.urgent && inQuietHours(now)) return { kind: 'later', at: nextSendingTime(now) };
    const channel: Channel = row.channel === 'zns' && deps.zns ? 'zns' : 'sms';
    if (!(await takeFromCap(trx, channel, vietnamDay(now)))) return { kind: 'later', at: nextDayMorning(now) };
    const attempts = row.attempts + 1;
    await trx
      .updateTable('message_recipients')
      .set({ status: 'sending', attempts, lease_until: new Date(now.getTime() + deps.config.messages.leaseSeconds * 1000) })
      .where('id', '=', recipientId)
      .execute();
    return { kind: 'send', phone: row.phone, channel, body: row.body, link: optOutLink(deps.config.publicUrl, row.token ?? ''), templateId: row.zns_template_id, params: row.zns_params, attempts };
  });
}

async function mark(deps: DeliveryDeps, recipientId: number, values: { status: 'sent' | 'failed' | 'waiting'; channel?: Channel; reason: string }) {
  await deps.db
    .updateTable('message_recipients')
    .set({ status: values.status, channel: values.channel ?? null, reason: values.reason.slice(0, 500), lease_until: null, sent_at: values.status === 'sent' ? deps.clock.now() : null })
    .where('id', '=', recipientId)
    .where('status', '=', 'sending')
    .execute();
}

/** Starts this process's delivery worker; `stop` lets the job under way finish. */
export async function startMessageDelivery(deps: DeliveryDeps) {
  const boss = await messageQueue(deps.db, deps.config.messages);
  // pg-boss's own failures (a poll while the database is away...): retried by it, logged here.
  boss.on('error', (error) => deps.logger.warn({ err: error }, 'message queue error'));
  const gates = { sms: spacing(deps.config.messages.smsPerSecond), zns: spacing(deps.config.messages.znsPerSecond) };

  const deliver = async (recipientId: number) => {
    const claimed = await claim(deps, recipientId);
    if (claimed.kind === 'done') return;
    if (claimed.kind === 'later') {
      const seconds = Math.max(1, Math.ceil((claimed.at.getTime() - deps.clock.now().getTime()) / 1000));
      await boss.send(DELIVERY_QUEUE, { recipientId } satisfies DeliveryJob, { startAfter: seconds });
      return;
    }
    const key = `msg-${recipientId}`;
    let refusal = '';
    try {
      if (claimed.channel === 'zns') {
        try {
          await gates.zns();
          await deps.zns!.send({ phone: claimed.phone, templateId: claimed.templateId, params: { ...claimed.params, link_tu_choi: claimed.link }, trackingId: key });
          return await mark(deps, recipientId, { status: 'sent', channel: 'zns', reason: '' });
        } catch (error) {
          if (!(error instanceof ZnsRefusal)) throw error;
          // No Zalo account, or ZNS refused: the SMS goes instead, within its own cap.
          refusal = error.message;
          if (!(await takeFromCap(deps.db, 'sms', vietnamDay(deps.clock.now())))) {
            await mark(deps, recipientId, { status: 'waiting', reason: `${refusal}; SMS: hết hạn mức hôm nay` });
            await boss.send(DELIVERY_QUEUE, { recipientId } satisfies DeliveryJob, { startAfter: Math.ceil((nextDayMorning(deps.clock.now()).getTime() - deps.clock.now().getTime()) / 1000) });
            return;
          }
        }
      }
      await gates.sms();
      await deps.sms.send(claimed.phone, withOptOutLink(claimed.body, claimed.link), { requestId: key });
      await mark(deps, recipientId, { status: 'sent', channel: 'sms', reason: refusal });
    } catch (error) {
      const reason = [refusal, error instanceof Error ? error.message : String(error)].filter(Boolean).join('; ');
      if (claimed.attempts >= DELIVERY_TRIES) return await mark(deps, recipientId, { status: 'failed', reason });
      await mark(deps, recipientId, { status: 'waiting', reason });
      // pg-boss tries the job again after its back-off.
      throw error;
    }
  };

  await boss.work<DeliveryJob>(DELIVERY_QUEUE, { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 1 }, async ([job]) => {
    if (job) await deliver(job.data.recipientId);
  });
  return { stop: () => boss.offWork(DELIVERY_QUEUE, { wait: true }) };
}
