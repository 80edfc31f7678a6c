// One appointment in the diary's grid, and where it sits: a minute is PX_PER_MIN pixels from the
// top of the day's first hour.
import { hhmm } from '../time.ts';
import type { DiaryAppointment } from '../types.ts';
import { customerName } from '../customer-names.ts';

export const PX_PER_MIN = 1;

export function place(starts: string, ends: string, from: number): Record<string, string> {
  const top = ((Date.parse(starts) - from) / 60_000) * PX_PER_MIN;
  const h = Math.max(14, ((Date.parse(ends) - Date.parse(starts)) / 60_000) * PX_PER_MIN);
  return { top: `${top}px`, height: `${h}px` };
}

export function AppointmentBlock(props: {
  a: DiaryAppointment;
  style: Record<string, string>;
  colour: string | null;
  tz: string;
  service?: string;
  saving: boolean;
  dragging: boolean;
  onPointerDown?: (e: PointerEvent) => void;
  onPointerMove?: (e: PointerEvent) => void;
  onPointerUp?: (e: PointerEvent) => void;
  onOpen?: () => void;
}) {
  const { a } = props;
  const who = a.guest_name ?? customerName(a.customer_id) ?? (a.customer_id ? 'Customer' : 'Guest');
  return (
    <button
      type="button"
      class={`appt status-${a.status}${props.saving ? ' saving' : ''}${props.dragging ? ' dragging' : ''}`}
      style={{ ...props.style, borderLeftColor: props.colour ?? '#555' }}
      data-appointment-id={a.id}
      data-starts-at={props.style.top}
      data-time={`${hhmm(a.starts_at, props.tz)}-${hhmm(a.ends_at, props.tz)}`}
      onPointerDown={props.onPointerDown}
      onPointerMove={props.onPointerMove}
      onPointerUp={props.onPointerUp}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          props.onOpen?.();
        }
      }}
    >
      <span class="t">
        {hhmm(a.starts_at, props.tz)}–{hhmm(a.ends_at, props.tz)}
      </span>{' '}
      <span class="who">{who}</span>
      {props.service && <span class="svc"> · {props.service}</span>}
      <span class="st"> · {a.status.replace('_', ' ')}</span>
    </button>
  );
}
