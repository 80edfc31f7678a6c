// A service's variants or add-ons in the catalogue (Catalogue.tsx): one list and one form for both.
import { useState } from 'preact/hooks';
import type { Body } from '../../../client/index.ts';

export type ServicePatch = Omit<Body<'/api/v1/bookings/services/{serviceId}', 'patch'>, 'store_id'>;

/** A service's variants or add-ons: each archived or restored in place (never deleted), and a new one by name. */
export function ServiceOptions(props: {
  kind: 'variants' | 'addons';
  label: string;
  newLabel: string;
  added: string;
  items: Array<{ id: string; name: string; is_active: boolean; detail: string }>;
  busy: boolean;
  patch: (body: ServicePatch, done: string) => Promise<boolean>;
}) {
  const [name, setName] = useState('');
  const { kind, patch } = props;
  return (
    <div class="sub">
      {props.label}:{' '}
      {props.items.length
        ? props.items.map((o) => (
            <span key={o.id} class={o.is_active ? 'chip' : 'chip archived'}>
              {o.name}
              {o.detail}
              <button
                type="button"
                class="link"
                onClick={() =>
                  void patch(
                    { [kind]: [{ id: o.id, is_active: !o.is_active }] },
                    `${o.name} ${o.is_active ? 'archived' : 'restored'}`,
                  )
                }
              >
                {o.is_active ? 'archive' : 'restore'}
              </button>
            </span>
          ))
        : 'none'}
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (await patch({ [kind]: [{ name: name.trim() }] }, props.added)) setName('');
        }}
      >
        <label>
          {props.newLabel}
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        </label>
        <button type="submit" disabled={props.busy}>
          Add
        </button>
      </form>
    </div>
  );
}
