// One events stream per signed-in tab, shared by the screens that want live updates. When the
// stream is not available, screens refresh after their own actions only (status 'unavailable').
import { openEventStream, type StoreEvent, type StreamStatus } from './events.ts';

type Listener = (type: string, event: StoreEvent | null) => void;

export class LiveHub {
  status: StreamStatus = 'connecting';
  private listeners = new Set<Listener>();
  private statusListeners = new Set<(s: StreamStatus) => void>();
  private stop: () => void;

  constructor(storeId: string, token: () => string | null, onUnauthenticated: () => void) {
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

  /** Calls listener for events whose type starts with one of the prefixes; returns the unsubscribe. */
  on(prefixes: string[], listener: () => void): () => void {
    const l: Listener = (type) => {
      if (prefixes.some((p) => type.startsWith(p))) listener();
    };
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  onStatus(listener: (s: StreamStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  close() {
    this.stop();
  }
}
