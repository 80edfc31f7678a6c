// The hold's countdown: a visible timer every second, and a polite live region that speaks only at
// each whole minute, at 30 seconds and when the hold ends (a screen reader is not read a number a
// second). The page counts hold_minutes from the hold's answer, on this browser's clock.
import { useEffect, useState } from 'preact/hooks';

export function useRemaining(deadline: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [deadline]);
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

const mmss = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export function Countdown(props: { remaining: number; what: string }) {
  const { remaining } = props;
  const [spoken, setSpoken] = useState('');
  useEffect(() => {
    if (remaining === 0) setSpoken(`Your hold on ${props.what} has ended.`);
    else if (remaining === 30) setSpoken('30 seconds left to finish.');
    else if (remaining % 60 === 0) setSpoken(`${remaining / 60} minute${remaining === 60 ? '' : 's'} left to finish.`);
  }, [remaining]);
  return (
    <div class={`countdown${remaining <= 60 ? ' low' : ''}`}>
      <p>
        {remaining > 0 ? (
          <>
            Held for you:{' '}
            <span role="timer" data-testid="countdown">
              {mmss(remaining)}
            </span>{' '}
            left
          </>
        ) : (
          <strong>Your hold has ended.</strong>
        )}
      </p>
      <p class="sr-only" aria-live="polite" data-testid="countdown-live">
        {spoken}
      </p>
    </div>
  );
}
