// The parent's copy as a readable page (the same content as the JSON), to print or keep.
import { formatDateTime, formatDuration } from '../../../shared/format';
import type { MyData, MyDataPractice } from '../../../shared/schemas/privacy';
import { unitLevelLabels, type UnitLevel } from '../../../shared/unit-level';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const row = (label: string, value: string | number | null) => `<tr><th scope="row">${escape(label)}</th><td>${escape(value === null ? '—' : String(value))}</td></tr>`;

/** One exam or practice round: its times and figures (`points`: the exam's row, empty for practice), then each question with the answer chosen. */
function paperHtml(title: string, p: MyDataPractice, points: string): string {
  return `<section><h5>${escape(title)}</h5>
<table>${row('Trạng thái', p.status)}${row('Bắt đầu', formatDateTime(p.start_time))}${row('Nộp bài', p.submitted_at && formatDateTime(p.submitted_at))}${points}${row('Số câu đúng', p.correct_count)}${row('Thời gian làm bài', p.duration_seconds === null ? null : formatDuration(p.duration_seconds))}${row('Dự đoán số bài thi', p.prediction)}</table>
<ol>${p.questions.map((q) => `<li>${escape(q.question)}<br>Đã chọn: <strong>${escape(q.chosen_answer ?? '(chưa chọn)')}</strong></li>`).join('')}</ol></section>`;
}

/** `level`: the current season's unit level, which names the contestants' unit (issue 36). */
export function myDataHtml(data: MyData, level?: UnitLevel): string {
  const contestants = data.contestants
    .map((c) => {
      const exams = c.exams.map((e) => paperHtml(`${e.book}, lần thi ${e.attempt}`, e, row('Điểm', e.points))).join('');
      const practice = c.practice_rounds.map((p, i) => paperHtml(`Thi thử lần ${i + 1}`, p, '')).join('');
      const results = c.results.map((r) => `<li>${escape(r.contest)}: ${r.points} điểm, hạng ${r.rank} (hạng ${r.school_rank} trong trường)${r.prize ? `, ${escape(r.prize)}` : ''}</li>`).join('');
      const certificates = c.certificates.map((r) => `<li>Mã ${escape(r.code)} (${escape(r.kind)}), cấp ngày ${escape(formatDateTime(r.issued_at))}</li>`).join('');
      return `<section><h3>Thí sinh ${c.position}: ${escape(c.fullname)}</h3>
<table>${row(unitLevelLabels(level).long, c.district)}${row('Trường', c.school)}${row('Khối', c.class_group)}${row('Lớp', c.class)}${row('Ngày đăng ký', formatDateTime(c.created_at))}</table>
<h4>Bài thi</h4>${exams || '<p>Chưa có bài thi.</p>'}
<h4>Thi thử (không tính vào kết quả)</h4>${practice || '<p>Chưa thi thử.</p>'}
<h4>Kết quả</h4>${results ? `<ul>${results}</ul>` : '<p>Chưa có kết quả.</p>'}
<h4>Giấy chứng nhận</h4>${certificates ? `<ul>${certificates}</ul>` : '<p>Chưa có giấy chứng nhận.</p>'}</section>`;
    })
    .join('');
  return `<!doctype html>
<html lang="vi"><head><meta charset="utf-8"><title>Dữ liệu của tôi</title>
<style>body{font-family:system-ui,sans-serif;max-width:820px;margin:24px auto;padding:0 16px;line-height:1.5}table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}</style>
</head><body>
<h1>Dữ liệu của tôi</h1>
<p>Xuất lúc ${escape(formatDateTime(data.exported_at))}, theo Chính sách bảo mật phiên bản ${escape(data.privacy_notice_version)}.</p>
<h2>Tài khoản</h2>
<table>${row('Số điện thoại', data.account.phone)}${row('Tên', data.account.name || null)}${row('Ngày tạo', formatDateTime(data.account.created_at))}</table>
<h2>Sự đồng ý</h2>
${data.consents.length ? `<ul>${data.consents.map((c) => `<li>${escape(c.subject)}: phiên bản ${escape(c.version)}, lúc ${escape(formatDateTime(c.consented_at))}</li>`).join('')}</ul>` : '<p>Chưa ghi nhận.</p>'}
<h2>Thí sinh</h2>
${contestants || '<p>Chưa có thí sinh.</p>'}
<h2>Đăng nhập theo ngày</h2>
<table><tr><th scope="col">Ngày</th><th scope="col">Số lần</th></tr>${data.logins.map((l) => `<tr><td>${escape(l.date)}</td><td>${l.count}</td></tr>`).join('')}</table>
</body></html>`;
}
