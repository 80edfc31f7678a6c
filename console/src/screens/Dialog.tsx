// A modal dialog on the native <dialog> element: focus moves in, Escape closes, focus returns.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

let seq = 0;

export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useRef(`dlg-${++seq}`);
  useEffect(() => {
    const el = ref.current!;
    const back = document.activeElement as HTMLElement | null;
    el.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      props.onClose();
    };
    el.addEventListener('cancel', onCancel);
    return () => {
      el.removeEventListener('cancel', onCancel);
      el.close();
      back?.focus?.();
    };
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={id.current} class="dialog">
      <header>
        <h2 id={id.current}>{props.title}</h2>
        <button type="button" class="close" aria-label="Close" onClick={props.onClose}>
          ×
        </button>
      </header>
      {props.children}
    </dialog>
  );
}
