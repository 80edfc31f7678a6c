// A view whose code is a chunk of its own, fetched when first wanted (or earlier, by preload()): a
// page's first script carries only its first screen. Shared by the console and the booking page (each
// builds it into its own bundle). Without preact/compat: lazy and Suspense would bring more code than
// the views they split off.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export interface LazyView<P> {
  (props: P): preact.JSX.Element | null;
  /** Starts fetching the chunk (idempotent): call it when the view is likely next. */
  preload(): Promise<ComponentType<P>>;
}

export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  placeholder: () => preact.JSX.Element | null = () => null,
): LazyView<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => (loading ??= load().then((c) => (loaded = c)));
  function View(props: P) {
    const [, ready] = useState(0);
    useEffect(() => {
      if (!loaded) void preload().then(() => ready((n) => n + 1));
    }, []);
    const C = loaded;
    return C ? <C {...props} /> : placeholder();
  }
  View.preload = preload;
  return View;
}

/** Runs fn once the main thread is idle (or after a moment where idle callbacks are not supported). */
export function whenIdle(fn: () => void, timeout = 2000) {
  if ('requestIdleCallback' in window) requestIdleCallback(fn, { timeout });
  else setTimeout(fn, 200);
}
