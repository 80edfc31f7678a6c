// The console's one API client (generated types, openapi-fetch) and the action hook every button and
// form uses: one Idempotency-Key per user action, a synchronous busy guard (a double click sends
// once), and the envelope's message on failure.
import { createContext } from 'preact';
import { useContext, useRef, useState } from 'preact/hooks';
import { createApiClient, errorCode, errorMessage, type ApiClient } from '../../client/index.ts';
import type { Session } from './session.ts';
import { newKey } from './ids.ts';

export interface Ctx {
  api: ApiClient;
  session: Session;
  notify: (text: string, kind?: 'ok' | 'error') => void;
}

export const AppContext = createContext<Ctx>(null as unknown as Ctx);
export const useApp = () => useContext(AppContext);

export function makeClient(token: () => string | null, onUnauthenticated: (message: string) => void): ApiClient {
  return createApiClient({ token, onUnauthenticated });
}

export interface ActionState {
  busy: boolean;
  error: string | null;
  code: string | null;
}

type Result<T> = { data?: T; error?: unknown; response?: Response };

/**
 * run(call) sends call(key) unless an earlier run is still going. The key lives until a call succeeds,
 * so a retry after a network failure replays the same action rather than repeating it.
 */
export function useAction() {
  const [state, setState] = useState<ActionState>({ busy: false, error: null, code: null });
  const busy = useRef(false);
  const key = useRef<string | null>(null);

  async function run<T>(call: (idempotencyKey: string) => Promise<Result<T>>): Promise<T | null> {
    if (busy.current) return null;
    busy.current = true;
    key.current ??= newKey();
    setState({ busy: true, error: null, code: null });
    try {
      const { data, error } = await call(key.current);
      if (error !== undefined || data === undefined) {
        setState({ busy: false, error: errorMessage(error), code: errorCode(error) });
        return null;
      }
      key.current = null;
      setState({ busy: false, error: null, code: null });
      return data;
    } catch (err) {
      setState({ busy: false, error: errorMessage(err), code: null });
      return null;
    } finally {
      busy.current = false;
    }
  }
  const clear = () => setState({ busy: false, error: null, code: null });
  return { ...state, run, clear };
}

/** Header object for a mutating call. */
export const idem = (key: string) => ({ 'Idempotency-Key': key });
