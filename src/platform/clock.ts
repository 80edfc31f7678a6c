// "Now" comes from here so tests can stand at any instant (including daylight-saving changes).
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface FixedClock extends Clock {
  set(instant: string | Date): void;
  advance(ms: number): void;
}

export function fixedClock(start: string | Date): FixedClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (instant) => {
      current = new Date(instant);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}
