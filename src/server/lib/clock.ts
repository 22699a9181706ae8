/** The one source of "now" on the server, so tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: starts at `start` and moves only when told. */
export function createManualClock(start: Date | string = new Date()) {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set(to: Date | string) {
      current = new Date(to).getTime();
    },
    advance(milliseconds: number) {
      current += milliseconds;
    },
  };
}
export type ManualClock = ReturnType<typeof createManualClock>;
