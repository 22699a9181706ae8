// Popups and toasts of spec section 8: a title and a message that close by themselves.
import { useSyncExternalStore } from 'react';
import { NOTICE_MS } from '../../../shared/rules';
import './notices.css';

export type NoticeKind = 'success' | 'error' | 'info';
export interface Notice {
  id: number;
  kind: NoticeKind;
  title?: string;
  message?: string;
}

let notices: Notice[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** Shows a notice for `durationMs` (default 1.5 s, the spec's notice time). */
export function notify(kind: NoticeKind, title?: string, message?: string, durationMs = NOTICE_MS) {
  const notice = { id: nextId++, kind, title, message };
  notices = [...notices, notice];
  emit();
  setTimeout(() => {
    notices = notices.filter((n) => n.id !== notice.id);
    emit();
  }, durationMs);
}

export function NoticeStack() {
  const list = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => notices,
    () => notices,
  );
  return (
    <div className="notice-stack" aria-live="polite">
      {list.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.title && <p className="notice-title">{notice.title}</p>}
          {notice.message && <p className="notice-text">{notice.message}</p>}
        </div>
      ))}
    </div>
  );
}
