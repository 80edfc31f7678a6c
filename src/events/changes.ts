// What a change changed: the top-level fields whose values differ between the resource before and
// after, compared as JSON. An empty list means the change was a no-op, which emits nothing.
export function changedFields(before: object, after: object, ignore: readonly string[] = []): string[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(b), ...Object.keys(a)]);
  return [...keys].filter((k) => !ignore.includes(k) && JSON.stringify(b[k]) !== JSON.stringify(a[k]));
}
