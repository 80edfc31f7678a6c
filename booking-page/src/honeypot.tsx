// A field no person sees or reaches (visually hidden, aria-hidden, out of the tab order, no
// autofill); a script that fills every input fills it, and the server refuses quietly.
export function Honeypot(props: { id: string }) {
  return (
    <div class="hp" aria-hidden="true">
      <label>
        Leave this empty
        <input id={props.id} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  );
}

export function honeypot(id: string): string {
  return (document.getElementById(id) as HTMLInputElement | null)?.value ?? '';
}
