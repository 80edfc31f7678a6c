// The proof-of-work guard (ALTCHA, self-hosted: the challenge comes from this API, nothing leaves the
// machine). The widget (altcha-widget.ts) loads after the first paint, so the times are on screen
// first. It fetches the challenge through the generated client, and each payload is used once:
// take() hands the one solved in advance and starts solving the next.
import type { AltchaWidgetElement } from 'altcha/external';
import { useEffect, useRef } from 'preact/hooks';
import type { ApiClient } from './api.ts';

const loaded = () => import('./altcha-widget.ts').then(() => customElements.whenDefined('altcha-widget'));

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': {
        ref?: preact.Ref<AltchaWidgetElement>;
        name?: string;
        type?: string;
        display?: string;
        id?: string;
      };
    }
  }
}

export interface Guard {
  /** A solved payload for one request (waits for the proof of work when none is ready). */
  take(): Promise<string | null>;
}

/** A payload for one request: waits for the widget to be mounted (a fast first click), then for its proof. */
export async function payloadFrom(guard: { current: Guard | null }): Promise<string | null> {
  for (let i = 0; !guard.current && i < 600; i++) await new Promise((r) => setTimeout(r, 50));
  return (await guard.current?.take()) ?? null;
}

export const CHECK_FAILED = 'The security check could not run in this browser. Please try again.';

export function Altcha(props: { api: ApiClient; slug: string; guard: { current: Guard | null } }) {
  const el = useRef<AltchaWidgetElement>(null);
  useEffect(() => {
    const widget = el.current!;
    let ready: Promise<string | null> | null = null;
    const solve = () =>
      (ready = widget.verify().then(
        (r) => r?.payload ?? null,
        () => null,
      ));
    const configured = loaded()
      .then(() =>
        widget.configure({
          challenge: `/api/v1/book/${props.slug}/challenge`,
          // Through the generated client, like every other call of the page.
          fetch: async () => {
            const { data, error, response } = await props.api.GET('/api/v1/book/{slug}/challenge', {
              params: { path: { slug: props.slug } },
            });
            return new Response(JSON.stringify(data ?? error), {
              status: response.status,
              headers: { 'content-type': 'application/json' },
            });
          },
          hideFooter: true,
          hideLogo: true,
          minDuration: 0,
        }),
      )
      .then(solve);
    props.guard.current = {
      async take() {
        await configured;
        let payload = await (ready ?? solve());
        // A proof started the instant the widget was defined can come back empty: solve once more.
        if (!payload) {
          widget.reset();
          payload = await solve();
        }
        ready = null;
        widget.reset();
        solve();
        return payload;
      },
    };
    return () => {
      props.guard.current = null;
    };
  }, []);
  return (
    <div class="altcha">
      <altcha-widget ref={el} name="altcha" type="checkbox" />
    </div>
  );
}
