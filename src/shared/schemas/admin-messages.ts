// The back office's messages to families (/api/admin/messages) and the public opt-out
// (/api/opt-out/:token): one schema for the routes and the web form.
import { z } from 'zod';
import { idSchema } from './common';
import { moneyInputSchema } from '../money';
import { familyMessageTexts } from '../messages/family-messages';

export const audienceKinds = ['season', 'district', 'school', 'attempts_left', 'winners'] as const;
export const templateKinds = ['custom', 'results_published', 'certificates_ready', 'reminder'] as const;
export const channels = ['sms', 'zns'] as const;
export const recipientStatuses = ['waiting', 'sending', 'sent', 'failed', 'opted_out', 'reminded_today'] as const;
export type AudienceKind = (typeof audienceKinds)[number];
export type TemplateKind = (typeof templateKinds)[number];
export type Channel = (typeof channels)[number];
export type RecipientStatus = (typeof recipientStatuses)[number];

/** Characters of a message as typed (the one-segment rule refuses far fewer). */
export const MESSAGE_BODY_MAX = 1000;
const PARAM_NAME = /^[a-z][a-z0-9_]{0,39}$/;

export const audienceSchema = z.object({
  kind: z.enum(audienceKinds),
  district_id: idSchema().optional(),
  school_id: idSchema().optional(),
});
export type Audience = z.infer<typeof audienceSchema>;

/** What the organiser writes: the SMS text (always: it is the fallback of ZNS), the channel, the audience. */
export const messageDraftSchema = z.object({
  template: z.enum(templateKinds).default('custom'),
  body: z.string().trim().min(1, familyMessageTexts.bodyRequired).max(MESSAGE_BODY_MAX),
  /** Values of the text's {placeholders} that the server does not fill itself. */
  params: z.record(z.string().regex(PARAM_NAME), z.string().trim().max(200)).default({}),
  channel: z.enum(channels).default('sms'),
  zns_template_id: z.string().trim().max(40).default(''),
  zns_params: z.record(z.string().regex(PARAM_NAME), z.string().trim().max(200)).default({}),
  audience: audienceSchema,
  /** An urgent notice may go out between 21:00 and 07:00. */
  urgent: z.boolean().default(false),
});
export type MessageDraftInput = z.input<typeof messageDraftSchema>;
export type MessageDraft = z.output<typeof messageDraftSchema>;

export const messagePreviewSchema = z.object({
  recipients: z.number().int(),
  opted_out: z.number().int(),
  text: z.string(),
  encoding: z.enum(['gsm7', 'ucs2']),
  length: z.number().int(),
  segments: z.number().int(),
  /** đồng: SMS = recipients x segments x price; ZNS = recipients x ZNS price. */
  cost: z.number(),
  /** đồng: every ZNS message falling back to SMS. */
  cost_with_fallback: z.number(),
  /** When it would start: now, or 07:00 after the quiet hours. */
  send_after: z.string(),
  quiet_hours: z.boolean(),
  /** What today's cap of the channel still lets through. */
  cap_left_today: z.number().int(),
});
export type MessagePreview = z.infer<typeof messagePreviewSchema>;

export const readyMessageSchema = z.object({ kind: z.enum(templateKinds), label: z.string(), body: z.string() });
export const messageSettingsSchema = z.object({
  sms_segment_price: z.number(),
  zns_price: z.number(),
  sms_daily_cap: z.number().int(),
  zns_daily_cap: z.number().int(),
});
export const messageSettingsInputSchema = z.object({
  sms_segment_price: moneyInputSchema,
  zns_price: moneyInputSchema,
  sms_daily_cap: z.number().int(familyMessageTexts.capInvalid).min(0, familyMessageTexts.capInvalid).max(10_000_000, familyMessageTexts.capInvalid),
  zns_daily_cap: z.number().int(familyMessageTexts.capInvalid).min(0, familyMessageTexts.capInvalid).max(10_000_000, familyMessageTexts.capInvalid),
});
export type MessageSettings = z.infer<typeof messageSettingsSchema>;

export const messageOverviewResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    ready: z.array(readyMessageSchema),
    settings: messageSettingsSchema,
    zns_available: z.boolean(),
    /** The link each message ends with, as long as it is (for the form's live counter). */
    opt_out_example: z.string(),
  }),
});

const statusCountsSchema = z.object(Object.fromEntries(recipientStatuses.map((status) => [status, z.number().int()])) as Record<RecipientStatus, z.ZodNumber>);
export const campaignSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  template: z.enum(templateKinds),
  body: z.string(),
  channel: z.enum(channels),
  audience_label: z.string(),
  urgent: z.boolean(),
  send_after: z.string(),
  recipients: z.number().int(),
  estimated_cost: z.number(),
  counts: statusCountsSchema,
  /** ZNS messages that went as SMS instead. */
  fell_back: z.number().int(),
});
export type Campaign = z.infer<typeof campaignSchema>;
export const campaignResponseSchema = z.object({ success: z.literal(true), data: campaignSchema });
export const campaignListResponseSchema = z.object({ success: z.literal(true), data: z.array(campaignSchema) });
export const messagePreviewResponseSchema = z.object({ success: z.literal(true), data: messagePreviewSchema });
export const messageSettingsResponseSchema = z.object({ success: z.literal(true), data: messageSettingsSchema });
export const campaignIdParamsSchema = z.object({ id: idSchema() });

/** The public opt-out page's token (12 characters, base64url). */
export const optOutParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{12}$/) });
export const optOutResponseSchema = z.object({ success: z.literal(true), data: z.object({ opted_out: z.boolean(), masked_phone: z.string() }) });
