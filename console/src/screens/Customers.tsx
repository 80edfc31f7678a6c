// The roster: search, sort, lifecycle stage and facet filters, paging. A row opens the customer page.
import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../api.ts';
import type { Query } from '../../../client/index.ts';
import type { RosterRow } from '../types.ts';
import { money } from '../time.ts';

type RosterQuery = Query<'/api/v1/customers/list', 'get'>;
const PAGE = 30;
const FACETS = [
  ['has_orders', 'Has orders'],
  ['has_stamps', 'Has stamps'],
  ['marketing_opted_in', 'Marketing opted in'],
] as const;

export function Customers() {
  const { api, session } = useApp();
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<NonNullable<RosterQuery['sort']>>('recent');
  const [stage, setStage] = useState<RosterQuery['stage'] | ''>('');
  const [facets, setFacets] = useState<string[]>([]);
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<RosterRow[]>([]);
  const [total, setTotal] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const t = setTimeout(async () => {
      const query: RosterQuery = { store_id: session.storeId, sort, limit: PAGE, offset };
      if (q.trim()) query.q = q.trim();
      if (stage) query.stage = stage;
      if (facets.length) query.facets = facets.join(',');
      const { data, error } = await api.GET('/api/v1/customers/list', { params: { query } });
      if (error || !data) return setError((error as any)?.error?.message ?? 'Could not load customers');
      setError(null);
      setRows(data.customers);
      setTotal(data.pagination.total_count);
      setHasMore(data.pagination.has_more);
    }, 200);
    return () => clearTimeout(t);
  }, [q, sort, stage, facets, offset]);

  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setOffset(0);
    };

  return (
    <section aria-labelledby="customers-title">
      <div class="toolbar">
        <h1 id="customers-title">Customers</h1>
        <label>
          Search
          <input
            type="search"
            value={q}
            onInput={(e) => reset(setQ)(e.currentTarget.value)}
            placeholder="Name, email or phone"
          />
        </label>
        <label>
          Sort
          <select value={sort} onChange={(e) => reset(setSort)(e.currentTarget.value as typeof sort)}>
            <option value="recent">Most recent</option>
            <option value="spend">Spend</option>
            <option value="visits">Visits</option>
            <option value="name">Name</option>
          </select>
        </label>
        <label>
          Stage
          <select value={stage ?? ''} onChange={(e) => reset(setStage)(e.currentTarget.value as typeof stage)}>
            <option value="">Any</option>
            {['new', 'active', 'stale', 'lapsed', 'returning'].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <fieldset class="facets">
          <legend>Only</legend>
          {FACETS.map(([f, label]) => (
            <label class="inline" key={f}>
              <input
                type="checkbox"
                checked={facets.includes(f)}
                onChange={(e) =>
                  reset(setFacets)(e.currentTarget.checked ? [...facets, f] : facets.filter((x) => x !== f))
                }
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <table class="table">
        <caption class="sr-only">Customers, {total} in all</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Phone</th>
            <th scope="col">Email</th>
            <th scope="col">Stage</th>
            <th scope="col">Visits</th>
            <th scope="col">Spend</th>
            <th scope="col">Last visit</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>
                <a href={`#/customers/${r.id}`}>{r.name ?? '(no name)'}</a>
              </td>
              <td>{r.phone ?? ''}</td>
              <td>{r.email ?? ''}</td>
              <td>{r.lifecycle_stage}</td>
              <td>{r.total_visits}</td>
              <td>{money(r.total_spent_pence, 'GBP')}</td>
              <td>{r.last_visit_at ? new Date(r.last_visit_at).toLocaleDateString('en-GB') : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="pager">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous page
        </button>
        <span>{total ? `${offset + 1}–${offset + rows.length} of ${total}` : 'No customers'}</span>
        <button type="button" disabled={!hasMore} onClick={() => setOffset(offset + PAGE)}>
          Next page
        </button>
      </div>
    </section>
  );
}
