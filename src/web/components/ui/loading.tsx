/** What a screen shows while its data is on the way. */
export function Loading() {
  return (
    <p className="muted" aria-busy="true">
      Đang tải…
    </p>
  );
}
