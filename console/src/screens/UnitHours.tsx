// Unit working hours: read and replaced through /api/v1/bookings/units/{unitId}/hours once that
// endpoint exists in the generated client (see console/README.md).
import type { Unit } from '../types.ts';

export function UnitHours(props: { units: Unit[] }) {
  return (
    <div class="card" aria-labelledby="hours-title">
      <h2 id="hours-title">Units</h2>
      <ul class="list">
        {props.units.map((u) => (
          <li key={u.id}><span class="swatch" style={{ background: u.colour ?? '#888' }} aria-hidden="true" /> {u.display_name} <small>({u.kind})</small></li>
        ))}
      </ul>
      <p class="notice">Working hours are not available on this server yet.</p>
    </div>
  );
}
