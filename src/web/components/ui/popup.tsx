// The popups of spec section 8 ('Đăng nhập thất bại', 'Thành công', 'Thất bại'): a title and a
// message in a modal that closes by itself after the spec's time (1.5 s), or sooner with 'Đóng'.
// The time stops while the reader has moved the pointer onto the popup, so they can keep it open.
import { useEffect, useRef, useState } from 'react';
import { NOTICE_MS } from '../../../shared/rules';
import { Button } from './button';
import { Modal } from './modal';

export interface PopupContent {
  kind: 'success' | 'error';
  title: string;
  message?: string;
}

export function Popup({ popup, onClose, durationMs = NOTICE_MS }: { popup: PopupContent; onClose: () => void; durationMs?: number }) {
  const close = useRef(onClose);
  close.current = onClose;
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => close.current(), durationMs);
    return () => clearTimeout(timer);
  }, [popup, durationMs, held]);
  return (
    <Modal
      title={popup.title}
      onClose={onClose}
      role="alertdialog"
      describe
      className={`popup popup-${popup.kind}`}
      dialogProps={{
        // A real move, not the pointer that was already where the popup appeared (the click
        // that opened it): that one would hold every popup shown under a resting mouse.
        onPointerMove: (event) => (event.movementX || event.movementY) && setHeld(true),
        onPointerLeave: () => setHeld(false),
      }}
      actions={
        <Button variant="outline" onClick={onClose}>
          Đóng
        </Button>
      }
    >
      {popup.message && <p className="popup-message">{popup.message}</p>}
    </Modal>
  );
}

/** A popup slot for a screen: `show(content)` opens it; `element` is to be rendered. */
export function usePopup(onClosed?: () => void) {
  const [popup, setPopup] = useState<PopupContent>();
  const element = popup ? (
    <Popup
      popup={popup}
      onClose={() => {
        setPopup(undefined);
        onClosed?.();
      }}
    />
  ) : null;
  return { show: setPopup, element };
}
