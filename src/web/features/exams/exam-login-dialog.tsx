// The parent's login over a running exam, when the session ended elsewhere (a password changed or
// a logout on another phone: the API answers 401). The exam stays on screen and its clock runs;
// the answers wait on the device and are saved once the parent is back.
import { ReloginDialog } from '../../components/relogin-dialog';

export const examLoginTexts = {
  title: 'Phụ huynh vui lòng đăng nhập lại',
  text: 'Phiên đăng nhập đã kết thúc (có thể do đổi mật khẩu hoặc đăng xuất trên thiết bị khác). Bài làm của em vẫn được giữ trên máy này và sẽ được lưu ngay sau khi phụ huynh đăng nhập.',
  timeLeft: 'Thời gian làm bài vẫn đang tính, còn lại',
  submit: 'Đăng nhập và làm tiếp',
} as const;

export function ExamLoginDialog({ phone, timeLeft, onLoggedIn }: { phone?: string; timeLeft?: string; onLoggedIn: () => void }) {
  return (
    <ReloginDialog title={examLoginTexts.title} text={examLoginTexts.text} submitLabel={examLoginTexts.submit} phone={phone} className="exam-login-backdrop" onLoggedIn={onLoggedIn}>
      {timeLeft && (
        <p className="exam-login-time">
          {examLoginTexts.timeLeft} <time>{timeLeft}</time>
        </p>
      )}
    </ReloginDialog>
  );
}
