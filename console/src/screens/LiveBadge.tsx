// Whether the screen is following the store's events live (the diary and the queue show it).
import { useEffect, useState } from 'preact/hooks';
import type { LiveHub } from '../live.ts';

export function LiveBadge(props: { hub: LiveHub }) {
  const [status, setStatus] = useState(props.hub.status);
  useEffect(() => props.hub.follow(setStatus), [props.hub]);
  const text =
    status === 'live'
      ? 'Live'
      : status === 'unavailable'
        ? 'Not live: refreshes after your actions'
        : status === 'retrying'
          ? 'Reconnecting…'
          : 'Connecting…';
  return (
    <span class={`live-badge ${status}`} data-testid="live-status">
      {text}
    </span>
  );
}
