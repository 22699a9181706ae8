// The question editor: the question, 2 to 4 answers with the correct one chosen, and an optional
// recorded clip for the question and each answer (for children who listen rather than read).
import { useFieldArray, useForm, type FieldError } from 'react-hook-form';
import { zodResolver } from '../../../lib/zod-resolver';
import { booksMessages, questionInputSchema, type AdminQuestion, type QuestionData, type QuestionInput } from '../../../../shared/schemas/admin-books';
import { ANSWER_LETTERS, MAX_ANSWERS, MIN_ANSWERS } from '../../../../shared/question-formats/question-text';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api, ApiRequestError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { FileInput } from '../kit/file-input';
import { uploadFile } from '../kit/upload';

const emptyAnswers = () => Array.from({ length: MAX_ANSWERS }, () => ({ value: '', audio: null }));

function initialValues(question: AdminQuestion | null): QuestionInput {
  if (!question) return { value: '', audio: null, is_practice: false, answers: emptyAnswers(), correct: '' as unknown as number };
  return {
    value: question.value,
    audio: question.audio,
    is_practice: question.is_practice,
    answers: question.answers.map((a) => ({ value: a.value, audio: a.audio })),
    correct: String(Math.max(0, question.answers.findIndex((a) => a.is_correct))) as unknown as number,
  };
}

export function QuestionEditor({
  bookId,
  question,
  onClose,
  onSaved,
}: {
  bookId: number;
  question: AdminQuestion | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { register, control, handleSubmit, setError, setValue, watch, formState } = useForm<QuestionInput, unknown, QuestionData>({
    resolver: zodResolver(questionInputSchema),
    defaultValues: initialValues(question),
  });
  const answers = useFieldArray({ control, name: 'answers' });
  const errors = formState.errors;

  const submit = handleSubmit(async (values) => {
    try {
      if (question) await api.put(`/admin/questions/${question.id}`, values);
      else await api.post(`/admin/books/${bookId}/questions`, values);
      notify('success', question ? 'Đã lưu câu hỏi' : 'Đã thêm câu hỏi');
      onSaved();
    } catch (error) {
      const fieldErrors = error instanceof ApiRequestError ? Object.entries(error.errors) : [];
      for (const [key, message] of fieldErrors) setError(key as 'value', { type: 'server', message });
      // A refusal with a field (a drawn question made practice) is said on the field and in a notice.
      if (error instanceof ApiRequestError && error.status === 409) notify('error', 'Không lưu được câu hỏi', error.message);
      else if (fieldErrors.length === 0) notify('error', 'Không lưu được câu hỏi', errorMessage(error));
    }
  });

  return (
    <Modal title={question ? 'Sửa câu hỏi' : 'Thêm câu hỏi'} onClose={onClose} className="question-editor">
      <form onSubmit={submit} noValidate>
        <TextAreaField label="Câu hỏi" rows={4} hint="Xuống dòng bằng Enter (ví dụ khi trích một bài thơ)." {...register('value')} error={errors.value?.message} />
        <AudioField label="Âm thanh câu hỏi" path={watch('audio') ?? null} onChange={(path) => setValue('audio', path, { shouldDirty: true })} />
        <fieldset className="answers">
          <legend>Đáp án (chọn một đáp án đúng)</legend>
          {answers.fields.map((field, i) => {
            const letter = ANSWER_LETTERS[i]!;
            const answerError = (errors.answers as unknown as { value?: FieldError }[] | undefined)?.[i]?.value?.message;
            return (
              <div key={field.id} className="answer-row">
                <label className="correct-choice">
                  <input type="radio" value={String(i)} {...register('correct')} />
                  Đúng<span className="visually-hidden">: đáp án {letter}</span>
                </label>
                <div>
                  <TextField label={`Đáp án ${letter}`} {...register(`answers.${i}.value`)} error={answerError} />
                  <AudioField
                    label={`Âm thanh đáp án ${letter}`}
                    path={watch(`answers.${i}.audio`) ?? null}
                    onChange={(path) => setValue(`answers.${i}.audio`, path, { shouldDirty: true })}
                  />
                </div>
                <Button variant="outline" disabled={answers.fields.length <= MIN_ANSWERS} onClick={() => answers.remove(i)} aria-label={`Bỏ đáp án ${letter}`}>
                  Bỏ
                </Button>
              </div>
            );
          })}
          {answers.fields.length < MAX_ANSWERS && (
            <Button variant="outline" onClick={() => answers.append({ value: '', audio: null })}>
              Thêm đáp án
            </Button>
          )}
          {errors.correct?.message && (
            <p className="field-error" role="alert">
              {errors.correct.message}
            </p>
          )}
          {errors.answers?.message && (
            <p className="field-error" role="alert">
              {errors.answers.message}
            </p>
          )}
        </fieldset>
        <CheckboxField
          label={
            <>
              {booksMessages.practiceLabel} <span className="muted">({booksMessages.practiceHint})</span>
            </>
          }
          {...register('is_practice')}
          error={errors.is_practice?.message}
        />
        <div className="modal-actions">
          <Button variant="outline" onClick={onClose}>
            Huỷ
          </Button>
          <Button type="submit" disabled={formState.isSubmitting}>
            {question ? 'Lưu câu hỏi' : 'Thêm câu hỏi'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** A clip: the player when there is one, a file input to record one in (mp3, m4a, ogg, webm, wav), and remove. */
function AudioField({ label, path, onChange }: { label: string; path: string | null; onChange: (path: string | null) => void }) {
  return (
    <div className="audio-field">
      {path && (
        <>
          <audio controls preload="none" src={path} aria-label={label} />
          <Button variant="outline" onClick={() => onChange(null)}>
            Bỏ âm thanh
          </Button>
        </>
      )}
      <FileInput
        label={path ? `Đổi ${label.toLowerCase()}` : `${label} (MP3, M4A, OGG, WebM, WAV; không bắt buộc)`}
        accept="audio/mpeg,audio/mp4,audio/ogg,audio/webm,audio/wav,.mp3,.m4a,.ogg,.webm,.wav"
        failed="Không tải được âm thanh"
        send={async (file) => onChange((await uploadFile<{ data: { path: string } }>('/admin/questions/audio', file)).data.path)}
      />
    </div>
  );
}
