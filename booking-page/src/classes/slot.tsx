// Where the shop's classes go on the page (issue 44), in the first bundle and kept tiny: it asks for
// the week's classes once the page is up, and only when there are some (or the address carries an
// offer from the offer email, ?offer=<booking id>) loads the classes view, a chunk of its own. A shop
// without classes (or without the entitlement to make them) loads nothing more.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { attempt, type ApiClient } from '../api.ts';
import type { PageInfo } from '../types.ts';
import type { ClassesProps, Week } from './Classes.tsx';

/** The booking id of an offer link (?offer=<uuid>), or null. */
export function offerFromAddress(): string | null {
  const id = new URLSearchParams(location.search).get('offer');
  return id && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : null;
}

export function ClassesSlot(props: { api: ApiClient; slug: string; page: PageInfo; offer: string | null }) {
  const { api, slug, offer } = props;
  const [view, setView] = useState<{ Classes: ComponentType<ClassesProps>; week: Week | null } | null>(null);
  useEffect(() => {
    void (async () => {
      const r = await attempt(() => api.GET('/api/v1/book/{slug}/classes', { params: { path: { slug } } }));
      const week = r.ok ? r.data : null;
      if (!offer && !week?.occurrences.length) return;
      const { Classes } = await import('./Classes.tsx');
      setView({ Classes, week });
    })();
  }, []);
  return view ? <view.Classes api={api} slug={slug} page={props.page} first={view.week} offer={offer} /> : null;
}
