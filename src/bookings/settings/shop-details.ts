// The shop's own details (address, phone, website, about) as a store keeps them: trimmed, blank as
// null, a UK number (landline or mobile) as E.164, a website on https only. Each malformed value is
// refused by name before anything is written (the settings PATCH changes nothing then).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AppError } from '../../platform/errors/app-error.ts';

export const SHOP_DETAIL_LIMITS = { address: 300, phone: 40, website: 300, about: 600 } as const;
type Detail = keyof typeof SHOP_DETAIL_LIMITS;

// Guernsey, Jersey and the Isle of Man share +44 and the UK plan (as for customers' mobiles).
const UK_PLAN_REGIONS = new Set(['GB', 'GG', 'JE', 'IM']);
// Landlines, mobiles and 03 numbers (charged as landlines); not premium rate, pagers or personal numbers.
const SHOP_PHONE_TYPES = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE', 'UAN']);
// Control characters other than the line break an address may use between its lines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is this pattern's purpose
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

const refuse = (field: Detail, why: string) => new AppError('INVALID_SHOP_DETAILS', `${field}: ${why}`);

/** The E.164 form of a UK landline or mobile number, or null when the input is not one. */
export function ukShopPhoneE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), { defaultCountry: 'GB', extract: false });
  if (parsed?.countryCallingCode !== '44' || parsed.ext) return null;
  if (!parsed.country || !UK_PLAN_REGIONS.has(parsed.country)) return null;
  if (!parsed.isValid() || !SHOP_PHONE_TYPES.has(parsed.getType() ?? '')) return null;
  return parsed.number;
}

function text(field: Detail, value: string, multiline: boolean): string | null {
  const trimmed = value.trim().replace(/\r\n?/g, '\n');
  if (!trimmed) return null;
  if (trimmed.length > SHOP_DETAIL_LIMITS[field])
    throw refuse(field, `at most ${SHOP_DETAIL_LIMITS[field]} characters`);
  if (CONTROL.test(trimmed) || (!multiline && trimmed.includes('\n')))
    throw refuse(field, 'contains control characters');
  return trimmed;
}

function website(value: string): string | null {
  const typed = text('website', value, false);
  if (typed === null) return null;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw refuse('website', 'is not a web address (https://...)');
  }
  if (url.protocol !== 'https:') throw refuse('website', 'must start with https://');
  if (url.username || url.password) throw refuse('website', 'must not carry a user name or password');
  // A public name with a dot: not localhost, not a bare word.
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(url.hostname) || /^[\d.]+$/.test(url.hostname))
    throw refuse('website', 'needs a public host name, such as https://shop.example');
  if (url.href.length > SHOP_DETAIL_LIMITS.website)
    throw refuse('website', `at most ${SHOP_DETAIL_LIMITS.website} characters`);
  return url.href;
}

/** Normalises the details present in a settings change, in place; refuses the first malformed one. */
export function normaliseShopDetails(fields: Record<string, unknown>): void {
  if (typeof fields.address === 'string') fields.address = text('address', fields.address, true);
  if (typeof fields.about === 'string') fields.about = text('about', fields.about, true);
  if (typeof fields.website === 'string') fields.website = website(fields.website);
  if (typeof fields.phone === 'string') {
    const typed = text('phone', fields.phone, false);
    const e164 = typed === null ? null : ukShopPhoneE164(typed);
    if (typed !== null && e164 === null) throw refuse('phone', 'is not a UK phone number (landline or mobile)');
    fields.phone = e164;
  }
}
