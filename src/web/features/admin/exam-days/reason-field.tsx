// The required reason of an incident action (kept in the audit log): a labelled text area.
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextAreaField } from '../../../components/ui/field';
import { incidentLimits } from '../../../../shared/schemas/admin-exam-days';

export function ReasonField({ registration, error }: { registration: UseFormRegisterReturn; error?: string }) {
  return <TextAreaField label="Lý do (bắt buộc, ghi vào nhật ký)" rows={3} maxLength={incidentLimits.reasonMax} {...registration} error={error} />;
}
