// Messages to families: the preview (recipients and cost), the send (a campaign, its recipients and
// their delivery jobs in one transaction, audited), the reports and the area's settings.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Services } from '../../../services';
import type { Db } from '../../../db/client';
import { isUniqueViolation } from '../../../db/errors';
import { requireCurrentContest } from '../../../core/contest';
import { appError, notFound } from '../../../lib/errors';
import { XlsxBuilder } from '../../../lib/xlsx-writer';
import { recordAudit, type Actor } from '../kit/audit';
import { formatMoney, formatNumber } from '../../../../shared/format';
import { channelLabels, familyMessageTexts, recipientStatusLabels, templateLabels } from '../../../../shared/messages/family-messages';
import {
  recipientStatuses,
  templateKinds,
  type Campaign,
  type Channel,
  type MessageDraft,
  type MessagePreview,
  type MessageSettings,
  type RecipientStatus,
} from '../../../../shared/schemas/admin-messages';
import { familiesOf } from './audience';
import { withOptOutLink } from '../../../../shared/sms-segments';
import { messageQueue, queueDeliveries } from './queue';
import { checkOneSegment, fillPlaceholders, inQuietHours, knownPlaceholders, nextSendingTime, readyMessages, vietnamDay } from './rules';

type Deps = Pick<Services, 'db' | 'clock' | 'config'>;

/** Characters of an opt-out token (base64url of 9 random bytes: 72 bits). */
const TOKEN_LENGTH = 12;
export const optOutLink = (publicUrl: string, token: string) => `${publicUrl}/tu-choi/${token}`;

export async function getSettings(db: Db): Promise<MessageSettings> {
  return db.selectFrom('message_settings').select(['sms_segment_price', 'zns_price', 'sms_daily_cap', 'zns_daily_cap']).executeTakeFirstOrThrow();
}

export async function overview(deps: Deps) {
  return {
    ready: templateKinds.map((kind) => ({ kind, label: templateLabels[kind], body: kind === 'custom' ? '' : readyMessages[kind] })),
    settings: await getSettings(deps.db),
    zns_available: deps.config.messages.zns.driver !== 'off',
    opt_out_example: optOutLink(deps.config.publicUrl, 'x'.repeat(TOKEN_LENGTH)),
  };
}

/** The draft checked against every rule: its text filled and within one segment, its ZNS template complete, its audience. */
async function prepare(deps: Deps, db: Db, draft: MessageDraft) {
  const contest = await requireCurrentContest(db);
  const now = deps.clock.now();
  const known = knownPlaceholders(contest, deps.config.publicUrl, now);
  const body = fillPlaceholders(draft.body, known, draft.params);
  const text = withOptOutLink(body, optOutLink(deps.config.publicUrl, 'x'.repeat(TOKEN_LENGTH)));
  const length = checkOneSegment(text);
  let znsParams: Record<string, string> = {};
  if (draft.channel === 'zns') {
    if (deps.config.messages.zns.driver === 'off') throw appError('channel_unavailable', familyMessageTexts.znsUnavailable, { channel: familyMessageTexts.znsUnavailable });
    if (!draft.zns_template_id) throw appError('template_params_missing', familyMessageTexts.znsTemplateRequired, { zns_template_id: familyMessageTexts.znsTemplateRequired });
    const empty = Object.entries(draft.zns_params).filter(([, value]) => value === '').map(([name]) => name);
    if (empty.length) throw appError('template_params_missing', familyMessageTexts.missingParameters(empty), { zns_params: familyMessageTexts.missingParameters(empty) });
    znsParams = Object.fromEntries(Object.entries(draft.zns_params).map(([name, value]) => [name, fillPlaceholders(value, known, draft.params)]));
  }
  const { families, label } = await familiesOf(db, contest, draft.audience);
  const settings = await getSettings(db);
  const sendAfter = draft.urgent ? now : nextSendingTime(now);
  return { contest, now, body, text, length, znsParams, families, label, settings, sendAfter };
}

async function capLeft(db: Db, channel: Channel, settings: MessageSettings, day: string) {
  const row = await db.selectFrom('message_daily_counts').select('sent').where('day', '=', day).where('channel', '=', channel).executeTakeFirst();
  return Math.max(0, (channel === 'sms' ? settings.sms_daily_cap : settings.zns_daily_cap) - (row?.sent ?? 0));
}

function costOf(channel: Channel, recipients: number, segments: number, settings: MessageSettings) {
  const sms = recipients * segments * settings.sms_segment_price;
  return channel === 'sms' ? { cost: sms, withFallback: sms } : { cost: recipients * settings.zns_price, withFallback: recipients * (settings.zns_price + segments * settings.sms_segment_price) };
}

export async function preview(deps: Deps, draft: MessageDraft): Promise<MessagePreview> {
  const p = await prepare(deps, deps.db, draft);
  const recipients = p.families.filter((family) => !family.opted_out).length;
  const cost = costOf(draft.channel, recipients, p.length.segments, p.settings);
  return {
    recipients,
    opted_out: p.families.length - recipients,
    text: p.text,
    encoding: p.length.encoding,
    length: p.length.length,
    segments: p.length.segments,
    cost: cost.cost,
    cost_with_fallback: cost.withFallback,
    send_after: p.sendAfter.toISOString(),
    quiet_hours: !draft.urgent && inQuietHours(p.now),
    cap_left_today: await capLeft(deps.db, draft.channel, p.settings, vietnamDay(p.now)),
  };
}

/** Sends: the campaign, one row per family (skips decided now) and one delivery job per family to reach, in one transaction. */
export async function send(deps: Deps, actor: Actor, draft: MessageDraft): Promise<Campaign> {
  const queue = await messageQueue(deps.db, deps.config.messages);
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      // One send at a time: the one-reminder-a-day check below reads what earlier sends wrote.
      await sql`SELECT pg_advisory_xact_lock(hashtext('message_campaigns'))`.execute(trx);
      const p = await prepare(deps, trx, draft);
      const reachable = p.families.filter((family) => !family.opted_out);
      if (!reachable.length) throw appError('empty_audience', familyMessageTexts.emptyAudience, { audience: familyMessageTexts.emptyAudience });
      const cost = costOf(draft.channel, reachable.length, p.length.segments, p.settings);
      const campaign = await trx
        .insertInto('message_campaigns')
        .values({
          contest_id: p.contest.id,
          template: draft.template,
          body: p.body,
          segments: p.length.segments,
          channel: draft.channel,
          zns_template_id: draft.channel === 'zns' ? draft.zns_template_id : '',
          zns_params: JSON.stringify(p.znsParams),
          audience: JSON.stringify(draft.audience),
          audience_label: p.label,
          urgent: draft.urgent,
          send_after: p.sendAfter,
          estimated_cost: cost.cost,
          created_by: actor.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const reminderDay = draft.template === 'reminder' ? vietnamDay(p.sendAfter) : null;
      const remindedToday = new Set<number>();
      if (reminderDay) {
        const rows = await trx.selectFrom('message_recipients').select('user_id').where('reminder_day', '=', reminderDay).execute();
        for (const row of rows) remindedToday.add(row.user_id);
      }
      // Every family gets its opt-out token the first time a message is queued for it.
      for (let at = 0; at < p.families.length; at += 1000) {
        const tokens = p.families.slice(at, at + 1000).map((family) => ({ user_id: family.user_id, token: randomBytes(9).toString('base64url') }));
        await trx.insertInto('message_opt_outs').values(tokens).onConflict((oc) => oc.column('user_id').doNothing()).execute();
      }
      const queued: { id: number; startAfterSeconds: number }[] = [];
      const startAfterSeconds = Math.max(0, Math.ceil((p.sendAfter.getTime() - p.now.getTime()) / 1000));
      for (let at = 0; at < p.families.length; at += 1000) {
        const rows = p.families.slice(at, at + 1000).map((family) => {
          const status: RecipientStatus = family.opted_out ? 'opted_out' : remindedToday.has(family.user_id) ? 'reminded_today' : 'waiting';
          return { campaign_id: campaign.id, user_id: family.user_id, status, reminder_day: status === 'waiting' ? reminderDay : null };
        });
        const inserted = await trx.insertInto('message_recipients').values(rows).returning(['id', 'status']).execute();
        for (const row of inserted) if (row.status === 'waiting') queued.push({ id: row.id, startAfterSeconds });
      }
      await queueDeliveries(trx, queue, queued);
      await recordAudit(trx, actor, {
        kind: 'messages.send',
        summary: `Gửi tin nhắn "${templateLabels[draft.template]}" qua ${channelLabels[draft.channel]} tới ${formatNumber(queued.length)} phụ huynh (${p.label}), dự kiến ${formatMoney(cost.cost)}`,
        details: { campaign_id: campaign.id, audience: draft.audience, channel: draft.channel, recipients: queued.length, skipped: p.families.length - queued.length, estimated_cost: cost.cost, urgent: draft.urgent, send_after: p.sendAfter.toISOString() },
      });
      return campaign.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError('send_conflict', familyMessageTexts.reminderTwice);
    throw error;
  }
  return getCampaign(deps.db, id);
}

const emptyCounts = () => Object.fromEntries(recipientStatuses.map((status) => [status, 0])) as Record<RecipientStatus, number>;

async function campaignsWhere(db: Db, id?: number): Promise<Campaign[]> {
  let query = db.selectFrom('message_campaigns').selectAll().orderBy('id', 'desc').limit(100);
  if (id !== undefined) query = query.where('id', '=', id);
  const campaigns = await query.execute();
  if (!campaigns.length) return [];
  const counts = await db
    .selectFrom('message_recipients')
    .select(['campaign_id', 'status', sql<number>`count(*)`.as('n'), sql<number>`count(*) FILTER (WHERE channel = 'sms' AND reason LIKE 'ZNS%')`.as('fell_back')])
    .where(
      'campaign_id',
      'in',
      campaigns.map((campaign) => campaign.id),
    )
    .groupBy(['campaign_id', 'status'])
    .execute();
  return campaigns.map((campaign) => {
    const mine = counts.filter((row) => row.campaign_id === campaign.id);
    const byStatus = emptyCounts();
    for (const row of mine) byStatus[row.status] = row.n;
    return {
      id: campaign.id,
      created_at: campaign.created_at.toISOString(),
      template: campaign.template,
      body: campaign.body,
      channel: campaign.channel,
      audience_label: campaign.audience_label,
      urgent: campaign.urgent,
      send_after: campaign.send_after.toISOString(),
      recipients: mine.reduce((sum, row) => sum + row.n, 0),
      estimated_cost: campaign.estimated_cost,
      counts: byStatus,
      fell_back: mine.reduce((sum, row) => sum + row.fell_back, 0),
    };
  });
}

export const listCampaigns = (db: Db) => campaignsWhere(db);

export async function getCampaign(db: Db, id: number): Promise<Campaign> {
  const [campaign] = await campaignsWhere(db, id);
  if (!campaign) throw notFound(familyMessageTexts.campaignNotFound);
  return campaign;
}

/** The report's download: one row per family, its status, channel, the gateway's reason and when it was sent. */
export async function campaignXlsx(db: Db, id: number) {
  await getCampaign(db, id);
  const rows = await db
    .selectFrom('message_recipients as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.phone', 'u.name', 'r.status', 'r.channel', 'r.reason', 'r.attempts', 'r.sent_at'])
    .where('r.campaign_id', '=', id)
    .orderBy('r.id')
    .execute();
  const xlsx = new XlsxBuilder();
  try {
    xlsx.sheet({
      name: 'Người nhận',
      headings: ['Số điện thoại', 'Phụ huynh', 'Trạng thái', 'Kênh', 'Lý do', 'Số lần thử', 'Gửi lúc'],
      kinds: ['text', 'text', 'text', 'text', 'text', 'number', 'date'],
      widths: [14, 24, 30, 10, 50, 10, 18],
    });
    await xlsx.rows(rows.map((row) => [row.phone, row.name || null, recipientStatusLabels[row.status], row.channel ? channelLabels[row.channel] : null, row.reason || null, row.attempts, row.sent_at]));
    return { fileName: `tin-nhan-${id}.xlsx`, bytes: await xlsx.finish() };
  } catch (error) {
    await xlsx.abandon();
    throw error;
  }
}

export async function updateSettings(db: Db, actor: Actor, input: MessageSettings): Promise<MessageSettings> {
  return db.transaction().execute(async (trx) => {
    const before = await getSettings(trx);
    await trx.updateTable('message_settings').set(input).execute();
    await recordAudit(trx, actor, {
      kind: 'messages.settings',
      summary: `Sửa giá và hạn mức tin nhắn: SMS ${formatMoney(input.sms_segment_price)}/tin, ZNS ${formatMoney(input.zns_price)}/tin`,
      details: { before, after: input },
    });
    return getSettings(trx);
  });
}
