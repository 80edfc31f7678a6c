// A PostgreSQL WAL position (LSN), as the server prints it ("16/B374D848": two hex halves of a
// 64-bit byte offset). Positions are compared as bigints; they travel on the wire in the server's
// own text form, and are kept in Redis as 16 hex digits so that string order is numeric order.

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position, or null for anything that is not an LSN (a header a client made up is ignored, not an error). */
export function parseLsn(text: string | null | undefined): bigint | null {
  if (!text) return null;
  const m = LSN.exec(text.trim());
  if (!m) return null;
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** Fixed-width hex: string comparison of two of these is numeric comparison (the Redis script relies on it). */
export function sortableLsn(lsn: bigint): string {
  return lsn.toString(16).padStart(16, '0');
}

export function fromSortable(text: string | null | undefined): bigint | null {
  return text && /^[0-9a-f]{16}$/.test(text) ? BigInt(`0x${text}`) : null;
}

export const maxLsn = (a: bigint | null, b: bigint | null): bigint | null =>
  a === null ? b : b === null ? a : a > b ? a : b;
