// One events stream per signed-in tab, shared by the screens that want live updates. When the
// stream is not available, screens refresh after their own actions only (status 'unavailable').
import { openEventStream, type StoreEvent, type StreamStatus } from './events.ts';

type Listener = (type: string, event: StoreEvent | null) => void;

export class LiveHub {
  status: StreamStatus = 'connecting';
  private listeners = new Set<Listener>();
  private statusListeners = new Set<(s: StreamStatus) => void>();
  private stop: () => void;

  constructor(storeId: string, token: () => string | null, onUnauthenticated: (message: string) => void) {
    this.stop = openEventStream({
      storeId,
      token,
      onUnauthenticated,
      onEvent: (type, data) => this.listeners.forEach((l) => l(type, data)),
      onStatus: (s) => {
        this.status = s;
        this.statusListeners.forEach((l) => l(s));
      },
    });
  }

  /**
   * Calls listener for events whose type starts with one of the prefixes; returns the unsubscribe.
   * A burst (a bulk change, a catch-up after reconnecting) is one call: screens refetch their view.
   */
  on(prefixes: string[], listener: () => void, settleMs = 150): () => void {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const l: Listener = (type) => {
      if (!prefixes.some((p) => type.startsWith(p)) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        listener();
      }, settleMs);
    };
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
      if (timer) clearTimeout(timer);
    };
  }

  onStatus(listener: (s: StreamStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** onStatus, and the status as it is now (see followStatus). */
  follow(listener: (s: StreamStatus) => void): () => void {
    return followStatus(this, listener);
  }

  close() {
    this.stop();
  }
}

/**
 * Subscribes to a status and reports its current value at once. A screen reads the status when it
 * first renders but can subscribe only in an effect after it; the stream may go live in between
 * (its headers arrive in about 13 ms), and that change would be lost until the next one.
 */
export function followStatus<S>(
  source: { status: S; onStatus(listener: (s: S) => void): () => void },
  listener: (s: S) => void,
): () => void {
  const off = source.onStatus(listener);
  listener(source.status);
  return off;
}
