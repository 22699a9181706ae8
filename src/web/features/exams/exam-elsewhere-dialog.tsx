// The exam was opened on another device or tab (issue 20: 409 exam_open_elsewhere). The other
// screen writes now; this one has stopped saving. The child chooses: go on here (the server's
// answers are loaded again and this screen writes from then on: the other one gets this dialog in
// turn) or leave. Nothing is merged: this screen's unsaved answers are said to be dropped, with
// their number. Only a choice closes it (Escape and the backdrop do nothing), so that a stray tap
// neither overwrites the other screen nor loses the way back. Loaded only when needed.
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';

export const examElsewhereTexts = {
  title: 'Bài thi đang được mở ở nơi khác',
  text: 'Bài thi này vừa được mở trên một thiết bị hoặc một thẻ khác, nên màn hình này đã dừng lưu bài để không ghi đè lên bài làm ở đó.',
  unsaved: (count: number) => (count > 0 ? `${count} câu trả lời trên màn hình này chưa được lưu.` : 'Mọi câu trả lời trên màn hình này đã được lưu.'),
  choice: (count: number) =>
    count > 0
      ? `Nếu tiếp tục ở đây, em làm tiếp với bài làm đã lưu trên máy chủ; ${count} câu trả lời chưa lưu ở màn hình này sẽ không được giữ lại. Màn hình kia sẽ dừng lưu bài.`
      : 'Nếu tiếp tục ở đây, em làm tiếp với bài làm đã lưu trên máy chủ. Màn hình kia sẽ dừng lưu bài.',
  stay: 'Tiếp tục ở đây',
  leave: 'Rời khỏi bài thi',
} as const;

export function ExamElsewhereDialog({ unsaved, onStay, onLeave }: { unsaved: number; onStay: () => void; onLeave: () => void }) {
  return (
    <Modal
      title={examElsewhereTexts.title}
      role="alertdialog"
      describe
      className="exam-elsewhere"
      onClose={() => undefined}
      actions={
        <>
          <Button variant="outline" onClick={onLeave}>
            {examElsewhereTexts.leave}
          </Button>
          <Button onClick={onStay}>{examElsewhereTexts.stay}</Button>
        </>
      }
    >
      <p>{examElsewhereTexts.text}</p>
      <p className="exam-elsewhere-count">{examElsewhereTexts.unsaved(unsaved)}</p>
      <p>{examElsewhereTexts.choice(unsaved)}</p>
    </Modal>
  );
}
