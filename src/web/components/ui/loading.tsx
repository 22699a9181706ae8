/**
 * What a screen shows while its data is on the way: a window tall (.screen-loading), so the footer
 * stays below the fold until the data draws the screen (no jump of the footer into view and out).
 */
export function Loading() {
  return (
    <p className="muted screen-loading" aria-busy="true">
      Đang tải…
    </p>
  );
}
