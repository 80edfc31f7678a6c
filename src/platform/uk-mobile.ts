// UK mobile numbers in any spelling, normalised to E.164 with libphonenumber-js (never a regex:
// the numbering plan has ranges a pattern would get wrong, e.g. Ofcom's drama range 07700 900xxx).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Guernsey, Jersey and the Isle of Man share +44 and the UK numbering plan; libphonenumber files
// some +44 7 ranges under them (07781, 07839, 07911, 07624...). They are reached as UK mobiles,
// so they count (docs/decisions/customers.md, "Customer edit and block").
const UK_PLAN_REGIONS = new Set(['GB', 'GG', 'JE', 'IM']);

/** The E.164 form of a UK mobile number, or null when the input is not one. */
export function ukMobileE164(input: string): string | null {
  // extract: false so "call me on 07812..." is not fished out of surrounding text.
  const parsed = parsePhoneNumberFromString(input.trim(), { defaultCountry: 'GB', extract: false });
  if (parsed?.countryCallingCode !== '44') return null;
  if (parsed.ext) return null; // an extension on a mobile is not a mobile number; never drop it silently
  if (!parsed.country || !UK_PLAN_REGIONS.has(parsed.country)) return null;
  if (!parsed.isValid() || parsed.getType() !== 'MOBILE') return null;
  return parsed.number;
}

/**
 * A guest's contact phone (an appointment's or a walk-in's guest_phone): a UK mobile in any
 * spelling is stored as E.164, exactly as a customer's phone; anything else (a landline, a number
 * from abroad) is kept as typed, trimmed, because a guest without an account may have no UK mobile
 * and the shop still needs to read it back. Blank is null. One rule for every guest phone.
 */
export function guestPhone(input: string | null | undefined): string | null {
  const typed = input?.trim();
  if (!typed) return null;
  return ukMobileE164(typed) ?? typed;
}
