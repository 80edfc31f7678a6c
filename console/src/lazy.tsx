// A screen loaded as a chunk of its own the first time it opens (Classes), so the console's first
// script stays the size it was for the screens most staff use.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazyScreen(load: () => Promise<ComponentType>): ComponentType {
  let loaded: ComponentType | null = null;
  return function LazyScreen() {
    const [Screen, setScreen] = useState<ComponentType | null>(() => loaded);
    useEffect(() => {
      if (!loaded) void load().then((s) => setScreen(() => (loaded = s)));
    }, []);
    return Screen ? <Screen /> : <p aria-busy="true">Loading…</p>;
  };
}
