// Pieces every step uses: the heading that takes the focus when its step opens, and a time shown in
// the shop's zone (and the browser's, when it differs).
import { useEffect, useRef } from 'preact/hooks';
import { when } from './time.ts';

export function useFocusOnOpen<T extends HTMLElement>(active = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (active) ref.current?.focus();
  }, []);
  return ref;
}

export function When(props: { at: string; tz: string }) {
  const w = when(props.at, props.tz);
  return (
    <span class="when">
      <span data-testid="store-time">{w.store}</span>
      {w.local && (
        <span class="local" data-testid="local-time">
          {' '}
          · {w.local}
        </span>
      )}
    </span>
  );
}
