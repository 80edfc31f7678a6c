// Each unit's calendar feed link, to subscribe to in Google, Apple or Outlook calendars: copy, and
// rotate (a new link; the old one stops at once). Through the generated client only.
import { useEffect, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { Ok } from '../../../client/index.ts';

type Unit = Ok<'/api/v1/bookings/units', 'get'>['units'][number];

export function CalendarFeeds() {
  const { api, session } = useApp();
  const [units, setUnits] = useState<Unit[]>([]);
  useEffect(() => {
    void api
      .GET('/api/v1/bookings/units', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setUnits(data.units));
  }, []);
  return (
    <section class="card" aria-labelledby="feeds-title" data-testid="calendar-feeds">
      <h2 id="feeds-title">Calendar feeds</h2>
      <p>
        Each person's appointments in their own calendar app (subscribe by URL). Anyone with a link can read that diary:
        rotate it if it leaks.
      </p>
      <ul>
        {units.map((u) => (
          <FeedLink key={u.id} unit={u} />
        ))}
      </ul>
    </section>
  );
}

/** One unit's link with copy and rotate; also the Account screen's "your calendar" (a unit is its id and a name to show). */
export function FeedLink({ unit }: { unit: Pick<Unit, 'id' | 'display_name'> }) {
  const { api, notify } = useApp();
  const [url, setUrl] = useState<string | null>(null);
  const rotate = useAction();
  const path = { params: { path: { unitId: unit.id } } };
  useEffect(() => {
    void api.GET('/api/v1/bookings/units/{unitId}/calendar-feed', path).then(({ data }) => data && setUrl(data.url));
  }, [unit.id]);
  async function onRotate() {
    if (!confirm(`Give ${unit.display_name} a new link? The old one stops working at once.`)) return;
    const r = await rotate.run((key) =>
      api.POST('/api/v1/bookings/units/{unitId}/calendar-feed', { ...path, headers: idem(key) }),
    );
    if (r) {
      setUrl(r.url);
      notify('New link made');
    }
  }
  return (
    <li>
      <strong>{unit.display_name}</strong>{' '}
      <input
        readOnly
        value={url ?? ''}
        aria-label={`${unit.display_name}'s calendar link`}
        onFocus={(e) => e.currentTarget.select()}
        size={50}
      />{' '}
      <button
        type="button"
        disabled={!url}
        onClick={() => url && void navigator.clipboard.writeText(url).then(() => notify('Link copied'))}
      >
        Copy
      </button>{' '}
      <button type="button" disabled={rotate.busy} onClick={() => void onRotate()}>
        Rotate
      </button>
      {rotate.error && (
        <span class="error" role="alert">
          {rotate.error}
        </span>
      )}
    </li>
  );
}
