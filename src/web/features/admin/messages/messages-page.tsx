// /quan-tri/tin-nhan: messages to families. Write a message or pick a ready one, choose the
// audience and the channel, preview how many families it reaches and what it costs, send; then
// each send's report (sent, failed, skipped, waiting) with its list to download. Prices and caps
// of the channels are this page's own settings.
import { useEffect, useState, type FormEvent } from 'react';
import { formatDateTime, formatMoney, formatNumber } from '../../../../shared/format';
import { audienceLabels, channelLabels, templateLabels } from '../../../../shared/messages/family-messages';
import {
  audienceKinds,
  type AudienceKind,
  type Campaign,
  type Channel,
  type MessageDraftInput,
  type MessagePreview,
  type MessageSettings,
  type TemplateKind,
} from '../../../../shared/schemas/admin-messages';
import { KNOWN_PLACEHOLDERS, MAX_SMS_SEGMENTS, placeholdersOf, smsLength, withOptOutLink } from '../../../../shared/sms-segments';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { api, ApiRequestError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import { DataTable } from '../../../components/ui/data-table';
import { downloadFile } from '../../../lib/download';
import { NamedOptions, useDistrictSchools } from '../kit/district-schools';
import './messages-page.css';

interface Overview {
  ready: { kind: TemplateKind; label: string; body: string }[];
  settings: MessageSettings;
  zns_available: boolean;
  opt_out_example: string;
}

/** How often the reports refresh while a send is under way (ms). */
const REFRESH_MS = 3000;

export function MessagesPage() {
  usePageTitle('Tin nhắn cho phụ huynh');
  const [version, setVersion] = useState(0);
  const overview = useApiData<Overview>('/admin/messages', version);
  const campaigns = useApiData<Campaign[]>('/admin/messages/campaigns', version);
  const underWay = campaigns.data?.some((c) => c.counts.sending > 0 || (c.counts.waiting > 0 && new Date(c.send_after).getTime() <= Date.now()));
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(() => setVersion((v) => v + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, [underWay]);

  return (
    <section className="admin-page messages-admin">
      <h1>Tin nhắn cho phụ huynh</h1>
      {overview.message && <p role="alert">{overview.message}</p>}
      {overview.data && <MessageForm overview={overview.data} onSent={() => setVersion((v) => v + 1)} />}
      <Reports campaigns={campaigns.data} loading={campaigns.loading} error={campaigns.message} onRefresh={() => setVersion((v) => v + 1)} />
      {overview.data && <SettingsForm settings={overview.data.settings} onSaved={() => setVersion((v) => v + 1)} />}
    </section>
  );
}

function MessageForm({ overview, onSent }: { overview: Overview; onSent: () => void }) {
  const [template, setTemplate] = useState<TemplateKind>('custom');
  const [body, setBody] = useState('');
  const [params, setParams] = useState<Record<string, string>>({});
  const [channel, setChannel] = useState<Channel>('sms');
  const [znsTemplateId, setZnsTemplateId] = useState('');
  const [znsParams, setZnsParams] = useState('');
  const [audience, setAudience] = useState<AudienceKind>('season');
  const [districtId, setDistrictId] = useState('');
  const [schoolId, setSchoolId] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [preview, setPreview] = useState<MessagePreview | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { districts, schools } = useDistrictSchools(districtId);

  const counted = smsLength(withOptOutLink(body, overview.opt_out_example));
  const ownParams = placeholdersOf(body).filter((name) => !(KNOWN_PLACEHOLDERS as readonly string[]).includes(name));

  const draft = (): MessageDraftInput => ({
    template,
    body,
    params: Object.fromEntries(ownParams.map((name) => [name, params[name] ?? ''])),
    channel,
    zns_template_id: channel === 'zns' ? znsTemplateId : '',
    zns_params:
      channel === 'zns'
        ? Object.fromEntries(
            znsParams
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean)
              .map((line) => {
                const at = line.indexOf('=');
                return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
              }),
          )
        : {},
    audience: { kind: audience, ...(audience === 'district' || audience === 'school' ? { district_id: Number(districtId) || undefined } : {}), ...(audience === 'school' ? { school_id: Number(schoolId) || undefined } : {}) },
    urgent,
  });

  // Any change makes the preview stale: the organiser sees the count and cost of what is sent.
  const changed = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPreview(null);
  };

  async function run(action: 'preview' | 'send') {
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      if (action === 'preview') {
        setPreview((await api.post<{ data: MessagePreview }>('/admin/messages/preview', draft())).data);
      } else {
        const sent = (await api.post<{ data: Campaign }>('/admin/messages', draft())).data;
        notify('success', 'Đã xếp tin nhắn vào hàng đợi gửi', `${formatNumber(sent.counts.waiting)} phụ huynh sẽ nhận tin.`);
        setPreview(null);
        onSent();
      }
    } catch (error) {
      if (error instanceof ApiRequestError) setErrors(error.errors);
      setFailure(errorMessage(error) ?? 'Không gửi được. Vui lòng thử lại.');
    } finally {
      setBusy(false);
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run('preview');
  };

  return (
    <form className="admin-card" onSubmit={submit} noValidate>
      <h2>Soạn tin nhắn</h2>
      <SelectField
        label="Mẫu tin"
        value={template}
        onChange={(event) => {
          const kind = event.target.value as TemplateKind;
          setTemplate(kind);
          const ready = overview.ready.find((item) => item.kind === kind);
          if (ready && kind !== 'custom') setBody(ready.body);
          setPreview(null);
        }}
      >
        {overview.ready.map((item) => (
          <option key={item.kind} value={item.kind}>
            {item.label}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label="Nội dung SMS"
        rows={3}
        value={body}
        onChange={(event) => changed(setBody)(event.target.value)}
        error={errors.body}
        hint={
          <>
            <span data-testid="sms-counter" className={counted.segments > MAX_SMS_SEGMENTS ? 'messages-over' : undefined}>
              {formatNumber(counted.length)}/{counted.segments > 1 ? (counted.encoding === 'ucs2' ? 70 : 160) : counted.perSegment} ký tự ({counted.encoding === 'ucs2' ? 'có dấu' : 'không dấu'}) · {formatNumber(counted.segments)} tin SMS
            </span>
            . Đã gồm đường dẫn từ chối nhận tin ở cuối. Tin có dấu chỉ chứa 70 ký tự một tin, không dấu 160. Hệ thống tự điền {'{cuoc_thi}'}, {'{trang_web}'}, {'{ngay_dong}'}, {'{so_ngay}'}.
          </>
        }
      />
      {ownParams.map((name) => (
        <TextField key={name} label={`Giá trị của {${name}}`} value={params[name] ?? ''} onChange={(event) => changed(setParams)({ ...params, [name]: event.target.value })} />
      ))}
      <fieldset className="messages-channels">
        <legend>Kênh gửi</legend>
        <label>
          <input type="radio" name="channel" value="sms" checked={channel === 'sms'} onChange={() => changed(setChannel)('sms')} /> SMS ({formatMoney(overview.settings.sms_segment_price)}/tin)
        </label>
        <label>
          <input type="radio" name="channel" value="zns" checked={channel === 'zns'} disabled={!overview.zns_available} onChange={() => changed(setChannel)('zns')} /> Zalo ZNS ({formatMoney(overview.settings.zns_price)}/tin, gửi SMS thay nếu số điện thoại không có Zalo)
          {!overview.zns_available && ' — chưa cấu hình'}
        </label>
      </fieldset>
      {channel === 'zns' && (
        <>
          <TextField label="Mã mẫu ZNS (template id đã được Zalo duyệt)" value={znsTemplateId} onChange={(event) => changed(setZnsTemplateId)(event.target.value)} error={errors.zns_template_id} />
          <TextAreaField
            label="Tham số của mẫu ZNS"
            rows={3}
            value={znsParams}
            onChange={(event) => changed(setZnsParams)(event.target.value)}
            error={errors.zns_params}
            hint="Mỗi dòng một tham số: tên=giá trị (ví dụ ten_cuoc_thi={cuoc_thi}). Đường dẫn từ chối nhận tin được gửi trong tham số link_tu_choi."
          />
        </>
      )}
      <SelectField label="Người nhận" value={audience} onChange={(event) => changed(setAudience)(event.target.value as AudienceKind)} error={errors.audience}>
        {audienceKinds.map((kind) => (
          <option key={kind} value={kind}>
            {audienceLabels[kind]}
          </option>
        ))}
      </SelectField>
      {(audience === 'district' || audience === 'school') && (
        <SelectField label="Đơn vị" value={districtId} onChange={(event) => { changed(setDistrictId)(event.target.value); setSchoolId(''); }} error={errors['audience.district_id']}>
          <option value="">— Chọn đơn vị —</option>
          <NamedOptions items={districts.data} />
        </SelectField>
      )}
      {audience === 'school' && (
        <SelectField label="Trường" value={schoolId} onChange={(event) => changed(setSchoolId)(event.target.value)} error={errors['audience.school_id']} disabled={!districtId}>
          <option value="">— Chọn trường —</option>
          <NamedOptions items={schools.data} />
        </SelectField>
      )}
      <CheckboxField label="Thông báo khẩn: được gửi cả trong khung 21:00–07:00" checked={urgent} onChange={(event) => changed(setUrgent)(event.target.checked)} />
      {failure && (
        <p role="alert" className="field-error">
          {failure}
        </p>
      )}
      <div className="admin-actions">
        <Button type="submit" variant="outline" disabled={busy}>
          Xem trước số người nhận và chi phí
        </Button>
      </div>
      {preview && (
        <div className="messages-preview" role="status">
          <h3>Xem trước</h3>
          <p>
            Số người nhận: <strong data-testid="preview-recipients">{formatNumber(preview.recipients)} phụ huynh</strong>
            {preview.opted_out > 0 && ` (bỏ qua ${formatNumber(preview.opted_out)} phụ huynh đã từ chối nhận tin)`}
          </p>
          <p>
            Chi phí dự kiến: <strong data-testid="preview-cost">{formatMoney(preview.cost)}</strong>
            {channel === 'zns' && ` (tối đa ${formatMoney(preview.cost_with_fallback)} nếu tất cả phải gửi SMS thay)`} · {formatNumber(preview.segments)} tin SMS mỗi người
          </p>
          {preview.quiet_hours && <p>Đang trong khung giờ không gửi tin (21:00–07:00): tin sẽ bắt đầu gửi lúc {formatDateTime(preview.send_after)}.</p>}
          {preview.recipients > preview.cap_left_today && (
            <p>Hạn mức hôm nay của kênh này còn {formatNumber(preview.cap_left_today)} tin: phần còn lại sẽ gửi từ 07:00 ngày hôm sau.</p>
          )}
          <p className="messages-text">{preview.text}</p>
          <Button variant="accent" disabled={busy || preview.recipients === 0} onClick={() => void run('send')}>
            Gửi tới {formatNumber(preview.recipients)} phụ huynh
          </Button>
        </div>
      )}
    </form>
  );
}

function Reports({ campaigns, loading, error, onRefresh }: { campaigns: Campaign[] | undefined; loading: boolean; error?: string; onRefresh: () => void }) {
  return (
    <div className="admin-card">
      <h2>Các đợt đã gửi</h2>
      <DataTable<Campaign>
        caption="Các đợt gửi tin nhắn"
        rows={campaigns}
        rowKey={(row) => row.id}
        loading={loading}
        error={error}
        empty="Chưa gửi tin nhắn nào."
        columns={[
          { header: 'Ngày gửi', cell: (row) => formatDateTime(row.created_at), rowHeader: true },
          { header: 'Tin', cell: (row) => `${templateLabels[row.template]}: ${row.body}` },
          { header: 'Kênh', cell: (row) => channelLabels[row.channel] + (row.fell_back ? ` (${formatNumber(row.fell_back)} gửi SMS thay)` : '') },
          { header: 'Người nhận', cell: (row) => row.audience_label },
          { header: 'Đã gửi', numeric: true, cell: (row) => formatNumber(row.counts.sent) },
          { header: 'Lỗi', numeric: true, cell: (row) => formatNumber(row.counts.failed) },
          { header: 'Bỏ qua (từ chối nhận tin)', numeric: true, cell: (row) => formatNumber(row.counts.opted_out) },
          { header: 'Bỏ qua (đã nhắc hôm nay)', numeric: true, cell: (row) => formatNumber(row.counts.reminded_today) },
          { header: 'Đang chờ', numeric: true, cell: (row) => formatNumber(row.counts.waiting + row.counts.sending) + (new Date(row.send_after).getTime() > Date.now() ? ` (từ ${formatDateTime(row.send_after)})` : '') },
          { header: 'Chi phí dự kiến', numeric: true, cell: (row) => formatMoney(row.estimated_cost) },
          {
            header: 'Danh sách',
            cell: (row) => (
              <Button variant="outline" onClick={() => void downloadFile(`/admin/messages/campaigns/${row.id}/recipients.xlsx`, `tin-nhan-${row.id}.xlsx`)}>
                Tải .xlsx
              </Button>
            ),
          },
        ]}
      />
      <div className="admin-actions">
        <Button variant="outline" onClick={onRefresh}>
          Làm mới
        </Button>
      </div>
    </div>
  );
}

function SettingsForm({ settings, onSaved }: { settings: MessageSettings; onSaved: () => void }) {
  const [values, setValues] = useState({
    sms_segment_price: formatNumber(settings.sms_segment_price),
    zns_price: formatNumber(settings.zns_price),
    sms_daily_cap: String(settings.sms_daily_cap),
    zns_daily_cap: String(settings.zns_daily_cap),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const field = (name: keyof typeof values) => ({ value: values[name], error: errors[name], onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }) });

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await api.put('/admin/messages/settings', { ...values, sms_daily_cap: Number(values.sms_daily_cap), zns_daily_cap: Number(values.zns_daily_cap) });
      notify('success', 'Đã lưu giá và hạn mức tin nhắn');
      onSaved();
    } catch (error) {
      if (error instanceof ApiRequestError) setErrors(error.errors);
      notify('error', 'Không lưu được', errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="admin-card" onSubmit={(event) => void save(event)} noValidate>
      <h2>Giá và hạn mức</h2>
      <TextField label="Giá mỗi tin SMS (đ)" inputMode="numeric" {...field('sms_segment_price')} />
      <TextField label="Giá mỗi tin Zalo ZNS (đ)" inputMode="numeric" {...field('zns_price')} />
      <TextField label="Hạn mức SMS mỗi ngày (tin)" inputMode="numeric" {...field('sms_daily_cap')} />
      <TextField label="Hạn mức ZNS mỗi ngày (tin)" inputMode="numeric" {...field('zns_daily_cap')} />
      <div className="admin-actions">
        <Button type="submit" disabled={busy}>
          Lưu giá và hạn mức
        </Button>
      </div>
    </form>
  );
}
