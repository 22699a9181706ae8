// The prize tiers of each kind (name, number of prizes, amount for one) and the class minimum of
// the teacher prizes. Order within a kind is the order of the prizes (the first is the highest).
import { useState, type ReactNode } from 'react';
import { useFieldArray, useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import {
  prizeFormSchema,
  prizeKindLabels,
  prizeKinds,
  type ContestSettings,
  type PrizeFormInput,
  type PrizeFormValues,
  type PrizeKindName,
} from '../../../../shared/schemas/admin-contest';
import { formatDateTime, formatMoney, formatNumber } from '../../../../shared/format';
import { parseMoney } from '../../../../shared/money';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError, api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { TableFrame } from '../../../components/ui/table-frame';
import { ContestWarnings } from './contest-warnings';

// Amounts are edited as text, shown the way they are written ("300.000"), read by parseMoney.
const toForm = (settings: ContestSettings): PrizeFormInput => ({
  class_min_participants: settings.class_min_participants,
  prize_tiers: settings.prize_tiers.map((tier) => ({ ...tier, amount: formatNumber(tier.amount) })),
});

/** The amount typed, in đồng (0 while it cannot be read: the field says why). */
const amountOf = (typed: string | number | undefined): number => {
  const reading = parseMoney(String(typed ?? ''));
  return reading.ok ? reading.amount : 0;
};

export function PrizeTiersForm({ settings: initial }: { settings: ContestSettings }) {
  const [computedAt, setComputedAt] = useState(initial.results_computed_at);
  const [warnings, setWarnings] = useState<string[]>([]);
  const form = useForm<PrizeFormInput, unknown, PrizeFormValues>({ resolver: zodResolver(prizeFormSchema), defaultValues: toForm(initial) });
  const { register, handleSubmit, formState, control, watch } = form;
  const tiers = useFieldArray({ control, name: 'prize_tiers', keyName: 'key' });
  const values = watch('prize_tiers');

  const onSubmit = handleSubmit(async (body) => {
    try {
      const answer = await api.put<{ data: ContestSettings; warnings?: string[] }>('/admin/contest', body);
      form.reset(toForm(answer.data));
      setComputedAt(answer.data.results_computed_at);
      setWarnings(answer.warnings ?? []);
      notify('success', 'Đã lưu giải thưởng.');
    } catch (error) {
      if (error instanceof ApiRequestError) {
        for (const key of ['prize_tiers', 'class_min_participants'] as const) {
          const message = error.errors[key];
          if (message) form.setError(key, { type: 'server', message });
        }
      }
      notify('error', 'Chưa lưu được giải thưởng', errorMessage(error));
    }
  });

  /** Index of the previous (-1) or next (+1) tier of the same kind, if any. */
  const neighbour = (index: number, step: -1 | 1) => {
    const kind = tiers.fields[index]!.kind;
    for (let i = index + step; i >= 0 && i < tiers.fields.length; i += step) if (tiers.fields[i]!.kind === kind) return i;
    return -1;
  };
  // A rule on the whole list (one 'school_pupils' tier at most) or the server's message for it.
  const listErrors = formState.errors.prize_tiers;
  const listError = listErrors?.message ?? listErrors?.root?.message;

  return (
    <form className="admin-card" onSubmit={onSubmit} noValidate aria-labelledby="prize-form-title">
      <h2 id="prize-form-title">Giải thưởng</h2>
      {computedAt && (
        <p className="contest-warnings">
          Kết quả đã được tính lúc {formatDateTime(computedAt)}. Sau khi đổi giải thưởng cần tính lại kết quả; khi kết quả đã công bố thì không thể đổi nữa.
        </p>
      )}
      <div className="admin-form">
        <TextField
          label="Số thí sinh tối thiểu của lớp để xét giải Giáo viên truyền lửa"
          type="number"
          inputMode="numeric"
          min={1}
          {...register('class_min_participants', { valueAsNumber: true })}
          error={formState.errors.class_min_participants?.message}
        />
      </div>
      {prizeKinds.map((kind) => {
        const rows = tiers.fields.map((field, index) => ({ field, index })).filter(({ field }) => field.kind === kind);
        const total = rows.reduce((sum, { index }) => sum + (Number(values[index]?.winners) || 0) * amountOf(values[index]?.amount), 0);
        return (
          <KindTable key={kind} kind={kind} total={total} onAdd={() => tiers.append({ kind, name: '', winners: 1, amount: '' })} canAdd={kind !== 'school_pupils' || rows.length === 0}>
            {rows.map(({ field, index }, position) => {
              const errors = formState.errors.prize_tiers?.[index];
              const label = `${prizeKindLabels[kind]}, hạng ${position + 1}`;
              return (
                <tr key={field.key}>
                  <td className="num">{position + 1}</td>
                  <td>
                    <input aria-label={`${label}: tên giải`} aria-invalid={errors?.name ? true : undefined} {...register(`prize_tiers.${index}.name`)} />
                    {errors?.name && <span className="field-error">{errors.name.message}</span>}
                  </td>
                  <td>
                    <input
                      className="contest-number"
                      type="number"
                      min={0}
                      aria-label={`${label}: số giải`}
                      aria-invalid={errors?.winners ? true : undefined}
                      {...register(`prize_tiers.${index}.winners`, { valueAsNumber: true })}
                    />
                    {errors?.winners && <span className="field-error">{errors.winners.message}</span>}
                  </td>
                  <td>
                    <MoneyInput label={`${label}: tiền thưởng mỗi giải (đồng)`} typed={values[index]?.amount} error={errors?.amount?.message} {...register(`prize_tiers.${index}.amount`)} />
                  </td>
                  <td className="num">{formatMoney((Number(values[index]?.winners) || 0) * amountOf(values[index]?.amount))}</td>
                  <td>
                    <div className="contest-row-actions">
                    <Button variant="outline" aria-label={`${label}: lên trên`} disabled={neighbour(index, -1) < 0} onClick={() => tiers.swap(index, neighbour(index, -1))}>
                      ↑
                    </Button>
                    <Button variant="outline" aria-label={`${label}: xuống dưới`} disabled={neighbour(index, 1) < 0} onClick={() => tiers.swap(index, neighbour(index, 1))}>
                      ↓
                    </Button>
                    <Button variant="danger" aria-label={`${label}: xoá`} onClick={() => tiers.remove(index)}>
                      Xoá
                    </Button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </KindTable>
        );
      })}
      {listError && (
        <p className="field-error" role="alert">
          {listError}
        </p>
      )}
      <ContestWarnings warnings={warnings} />
      <div className="admin-actions">
        <Button type="submit" disabled={formState.isSubmitting}>
          Lưu giải thưởng
        </Button>
        <span className="muted">Tổng mỗi bảng = số giải × tiền thưởng mỗi giải.</span>
      </div>
    </form>
  );
}

/**
 * A money field: text, so that "300.000" and "1.000.000 đ" are typed as on paper; beside it the
 * amount as it will be paid, or why it cannot be read, while typing.
 */
function MoneyInput({ label, typed, error, ...field }: { label: string; typed: string | number | undefined; error?: string } & UseFormRegisterReturn) {
  const reading = parseMoney(String(typed ?? ''));
  const hintId = `${field.name}-paid`;
  return (
    <>
      <input className="contest-money" type="text" inputMode="decimal" autoComplete="off" aria-label={label} aria-invalid={error ? true : undefined} aria-describedby={hintId} {...field} />
      {error ? (
        <span id={hintId} className="field-error">
          {error}
        </span>
      ) : (
        <span id={hintId} className={reading.ok ? 'field-hint' : 'field-hint contest-money-unread'} aria-live="polite">
          {reading.ok ? `Sẽ trả: ${formatMoney(reading.amount)}` : reading.message}
        </span>
      )}
    </>
  );
}

function KindTable({ kind, total, onAdd, canAdd, children }: { kind: PrizeKindName; total: number; onAdd: () => void; canAdd: boolean; children: ReactNode }) {
  const id = `prizes-${kind}`;
  return (
    <div className="contest-kind">
      <h3 id={id}>{prizeKindLabels[kind]}</h3>
      <TableFrame labelledBy={id}>
        <table className="admin-table" aria-labelledby={id}>
          <thead>
            <tr>
              <th className="num" scope="col">Hạng</th>
              <th scope="col">Tên giải</th>
              <th scope="col">{kind === 'school_pupils' ? 'Số học sinh mỗi trường' : 'Số giải'}</th>
              <th scope="col">Tiền thưởng mỗi giải (đ)</th>
              <th className="num" scope="col">Thành tiền</th>
              <th scope="col">
                <span className="visually-hidden">Thao tác</span>
              </th>
            </tr>
          </thead>
          <tbody>{children}</tbody>
          <tfoot>
            <tr>
              <td colSpan={4}>
                {canAdd && (
                  <Button variant="outline" onClick={onAdd}>
                    Thêm hạng giải
                  </Button>
                )}
              </td>
              <td className="num">
                <strong>{formatMoney(total)}</strong>
              </td>
              <td />
            </tr>
          </tfoot>
        </table>
      </TableFrame>
    </div>
  );
}
