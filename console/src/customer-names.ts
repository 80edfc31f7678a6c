// Names for account customers. The diary and the queue carry only a customer_id for a signed-in
// customer's booking; this asks GET /api/v1/customers/{customerId} once per id and session (a few at a
// time), keeps the answer for the page's life, and re-renders whoever asked when names arrive.
import { useEffect, useState } from 'preact/hooks';
import { useApp } from './api.ts';

const names = new Map<string, string | null>();
const asked = new Set<string>();
const listeners = new Set<() => void>();
const AT_ONCE = 4;

/** A customer's display name, once known: their name, else their email; null until then or if unknown. */
export function customerName(id: string | null | undefined): string | null {
  return id ? (names.get(id) ?? null) : null;
}

/** Looks up the names of the given account customers (each once), re-rendering when they arrive. */
export function useCustomerNames(ids: readonly (string | null | undefined)[]): void {
  const { api, session } = useApp();
  const [, setTick] = useState(0);
  const wanted = [...new Set(ids.filter((id): id is string => !!id && !asked.has(id)))];
  const key = wanted.join(',');
  useEffect(() => {
    const rerender = () => setTick((n) => n + 1);
    listeners.add(rerender);
    return () => void listeners.delete(rerender);
  }, []);
  useEffect(() => {
    if (!wanted.length) return;
    for (const id of wanted) asked.add(id);
    const queue = [...wanted];
    const worker = async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const { data } = await api.GET('/api/v1/customers/{customerId}', {
          params: { path: { customerId: id }, query: { store_id: session.storeId } },
        });
        names.set(id, data ? (data.customer.name ?? data.customer.email ?? null) : null);
      }
    };
    void Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker)).then(() =>
      listeners.forEach((l) => l()),
    );
  }, [key]);
}
