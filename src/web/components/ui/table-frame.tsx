// The frame of a data table (the back office, the education offices' area): on a narrow screen a wide table scrolls sideways inside it
// instead of widening the page. While it scrolls, the frame is a named region the keyboard can
// reach (Tab, then the arrow keys), as WCAG 2.1.1 asks of a scrolling area with nothing to focus
// inside (axe's scrollable-region-focusable); when the table fits, it is no extra tab stop.
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import './data-table.css';

/** Whether the element's content is wider than the element, followed as either one resizes. */
function useScrollsSideways(ref: RefObject<HTMLElement | null>) {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const frame = ref.current;
    if (!frame || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(frame.scrollWidth > frame.clientWidth);
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    if (frame.firstElementChild) observer.observe(frame.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

export function TableFrame({ labelledBy, busy, children }: { labelledBy: string; busy?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(ref);
  return (
    <div
      ref={ref}
      className="admin-table-wrap"
      aria-busy={busy ? 'true' : undefined}
      {...(scrolls ? { role: 'region', tabIndex: 0, 'aria-labelledby': labelledBy } : {})}
    >
      {children}
    </div>
  );
}
