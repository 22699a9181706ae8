// One contestant card: name, district -> school (both searchable: searchable-select.tsx), class
// group -> class (or 'Khác' + typed class).
// Changing the district clears the school; changing the class group clears the class.
import { useState } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { accountMessages, privacyMessages } from '../../../shared/messages';
import { seasonMessages } from '../../../shared/messages/seasons';
import { winnersMessages } from '../../../shared/messages/winners';
import { CLASS_ROOM_OTHER } from '../../../shared/rules';
import { classGroupLabel } from '../../../shared/class-groups';
import type { ClassGroup, NamedItem } from '../../../shared/schemas/catalog';
import { Button } from '../../components/ui/button';
import { CheckboxField } from '../../components/ui/checkbox-field';
import { SelectField, TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { SearchableSelect } from '../../components/ui/searchable-select';
import { useOptions } from './catalog-options';
import type { ProfileFormValues } from './profile-form-values';
import { useUnitLabels } from '../../lib/site';
import { relabelUnit } from '../../../shared/unit-level';

interface Props {
  index: number;
  districts: NamedItem[];
  classGroups: ClassGroup[];
  /** Shown only for a deletable card (not contestant 1, no exam). */
  onDelete?: () => void;
}

/** The district and school lists, searchable (a commune-level province has a hundred or more of each). */
const searchable = (items: NamedItem[]) => items.map((item) => ({ value: String(item.id), label: item.name }));

const options = (items: NamedItem[]) =>
  items.map((item) => (
    <option key={item.id} value={String(item.id)}>
      {item.name}
    </option>
  ));

export function ContestantCard({ index, districts, classGroups, onDelete }: Props) {
  const { control, register, setValue, formState, getValues } = useFormContext<ProfileFormValues>();
  const [confirming, setConfirming] = useState(false);
  const name = `childrens.${index}` as const;
  const [locked, districtId, classGroupId, classRoomId, savedId] = useWatch({
    control,
    name: [`${name}.locked`, `${name}.district_id`, `${name}.class_group_id`, `${name}.class_room_id`, `${name}.id`],
  });
  const classPending = useWatch({ control, name: `${name}.class_pending` });
  const schoolNotice = useWatch({ control, name: `${name}.school_notice` });
  const schools = useOptions(districtId ? `/schools?district_id=${districtId}` : null);
  const classRooms = useOptions(classGroupId ? `/class-rooms?class_group_id=${classGroupId}` : null);
  const errors = formState.errors.childrens?.[index];
  const legendId = `contestant-${index}-legend`;
  // The season's level under the province (issue 36): 'Huyện' (the spec's) or 'Xã/Phường'.
  const unit = useUnitLabels();
  const say = (message: string | undefined) => message && relabelUnit(message, unit.level);

  return (
    <fieldset className="card contestant-card" aria-labelledby={legendId}>
      <legend id={legendId} className="contestant-legend">
        Thí sinh {index + 1}
      </legend>
      {locked && <p className="alert contestant-locked">{accountMessages.contestantLocked}</p>}
      {classPending && <p className="alert contestant-class-pending">{seasonMessages.classPendingNotice}</p>}
      {schoolNotice && <p className="alert contestant-school-notice">{schoolNotice}</p>}
      <TextField label="Họ và tên" autoComplete="off" disabled={locked} {...register(`${name}.fullname`)} error={errors?.fullname?.message} />
      <div className="contestant-grid">
        <Controller
          control={control}
          name={`${name}.district_id`}
          render={({ field }) => (
            <SearchableSelect
              label={unit.short}
              ref={field.ref}
              name={field.name}
              value={field.value}
              onBlur={field.onBlur}
              options={searchable(districts)}
              placeholder={unit.placeholder}
              disabled={locked}
              onChange={(id) => {
                field.onChange(id);
                setValue(`${name}.school_id`, '');
              }}
              error={say(errors?.district_id?.message)}
            />
          )}
        />
        <Controller
          control={control}
          name={`${name}.school_id`}
          render={({ field }) => (
            <SearchableSelect
              label="Trường học"
              ref={field.ref}
              name={field.name}
              value={field.value}
              onBlur={field.onBlur}
              onChange={field.onChange}
              options={searchable(schools.items)}
              placeholder={districtId ? 'Chọn trường' : unit.pickFirst}
              disabled={locked || !districtId}
              busy={schools.loading}
              error={say(errors?.school_id?.message)}
            />
          )}
        />
        <Controller
          control={control}
          name={`${name}.class_group_id`}
          render={({ field }) => (
            <SelectField
              label="Nhóm lớp"
              {...field}
              disabled={locked}
              onChange={(event) => {
                field.onChange(event);
                setValue(`${name}.class_room_id`, '');
                setValue(`${name}.class_room_other`, '');
              }}
              error={errors?.class_group_id?.message}
            >
              <option value="">Chọn nhóm lớp</option>
              {classGroups.map((group) => (
                <option key={group.id} value={String(group.id)}>
                  {classGroupLabel(group)}
                </option>
              ))}
            </SelectField>
          )}
        />
        <Controller
          control={control}
          name={`${name}.class_room_id`}
          render={({ field }) => (
            <SelectField label="Lớp" {...field} disabled={locked || !classGroupId} aria-busy={classRooms.loading} error={errors?.class_room_id?.message}>
              <option value="">{classGroupId ? 'Chọn lớp' : 'Chọn nhóm lớp trước'}</option>
              {options(classRooms.items)}
              {classGroupId && <option value={CLASS_ROOM_OTHER}>Khác</option>}
            </SelectField>
          )}
        />
      </div>
      {classRoomId === CLASS_ROOM_OTHER && (
        <TextField
          label="Tên lớp"
          hint="Tối đa 5 ký tự, ví dụ 5A10."
          autoComplete="off"
          disabled={locked}
          {...register(`${name}.class_room_other`)}
          error={errors?.class_room_other?.message}
        />
      )}
      {savedId === undefined && (
        // Asked once, when the contestant is enrolled (issue 15); never pre-ticked.
        <CheckboxField label={privacyMessages.childConsentLabel} {...register(`${name}.child_consent`)} error={errors?.child_consent?.message} />
      )}
      {/* Asked at enrolment and changeable at any time, also once the child has an exam (issue 37.2). */}
      <CheckboxField
        label={winnersMessages.consentLabel}
        aria-describedby={`${legendId}-publish-hint`}
        {...register(`${name}.publish_name`)}
      />
      <p id={`${legendId}-publish-hint`} className="field-hint contestant-publish-hint">
        {winnersMessages.consentHint}
      </p>
      {onDelete && (
        <div className="contestant-actions">
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Xoá thí sinh {index + 1}
          </Button>
        </div>
      )}
      {onDelete && confirming && (
        <Modal
          title={accountMessages.deleteContestantTitle(index + 1)}
          onClose={() => setConfirming(false)}
          role="alertdialog"
          describe
          actions={
            <>
              <Button variant="outline" onClick={() => setConfirming(false)}>
                Không xoá
              </Button>
              <Button variant="danger" onClick={onDelete}>
                Xoá
              </Button>
            </>
          }
        >
          <p>{accountMessages.deleteContestantText(getValues(`${name}.fullname`).trim())}</p>
        </Modal>
      )}
    </fieldset>
  );
}
