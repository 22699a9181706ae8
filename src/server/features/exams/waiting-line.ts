// The bounded wait of the exam batchers (save-batcher.ts, read-batcher.ts): requests wait here, in
// arrival order, until a statement takes them. Bounded in length (one more is refused at once) and
// in time (one that waits past the timeout is refused): a request is served or refused within about
// a second, and the screen keeps its answers and retries.

export interface Arrived {
  /** performance.now() when the request arrived (ms). */
  arrivedAt: number;
}

export interface WaitingLineOptions<Item extends Arrived> {
  /** Items waiting at most; push refuses one more. */
  limit?: number;
  /** Longest wait (ms) of an item; past it, it is taken out and given to onExpired. */
  timeoutMs?: number;
  /** The items whose wait has passed the timeout, oldest first (already out of the line). */
  onExpired(items: Item[]): void;
}

export function createWaitingLine<Item extends Arrived>({ limit = Infinity, timeoutMs = Infinity, onExpired }: WaitingLineOptions<Item>) {
  /**
   * In arrival order, so the oldest is first. The batchers take from it in place (splice, or a
   * compaction that keeps the order of those left).
   */
  const items: Item[] = [];
  /** One timer, for the deadline of the oldest item. */
  let deadlineTimer: NodeJS.Timeout | undefined;

  function expire() {
    deadlineTimer = undefined;
    const now = performance.now();
    let expired = 0;
    while (expired < items.length && now - items[expired]!.arrivedAt >= timeoutMs) expired += 1;
    if (expired > 0) onExpired(items.splice(0, expired));
    armDeadline();
  }

  /** Sets the timer for the oldest item's deadline, if none is set; call after taking items. */
  function armDeadline() {
    if (deadlineTimer || items.length === 0 || timeoutMs === Infinity) return;
    const delay = items[0]!.arrivedAt + timeoutMs - performance.now();
    // Unref: a waiting request keeps its own connection open; the timer alone must not keep a process alive.
    deadlineTimer = setTimeout(expire, Math.max(0, delay)).unref();
  }

  return {
    items,
    /** False (and nothing added) when the line is full. */
    push(item: Item): boolean {
      if (items.length >= limit) return false;
      items.push(item);
      return true;
    },
    armDeadline,
  };
}
