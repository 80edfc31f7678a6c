// The one catalogue of error codes. Every non-2xx answer carries one of these in
// { error: { code, message, requestId } }. Published in the OpenAPI document (x-error-codes).
// Features add their codes here, never inline elsewhere.

export const ERRORS = {
  // Input
  VALIDATION_FAILED: {
    status: 400,
    description: 'The request does not match the schema; the message names the field.',
  },
  MALFORMED_JSON: { status: 400, description: 'The body is not valid JSON.' },
  INVALID_IDEMPOTENCY_KEY: { status: 400, description: 'Idempotency-Key must be 1 to 255 visible ASCII characters.' },
  GUEST_CONTACT_REQUIRED: { status: 400, description: 'A booking needs customer_id or guest_email.' },
  WALK_IN_NAME_REQUIRED: { status: 400, description: 'A queue entry needs customer_id or guest_name.' },
  INVALID_TIME_RANGE: {
    status: 400,
    description: 'An end is not after its start, or a block does not contain the appointment.',
  },
  RANGE_TOO_LONG: { status: 400, description: 'The requested date range is longer than allowed.' },
  QUERY_TOO_SHORT: { status: 400, description: 'A search term needs at least 2 characters.' },
  INVALID_PHONE: { status: 400, description: 'The phone number is not a UK mobile.' },
  PARTY_SIZE_OUT_OF_RANGE: {
    status: 400,
    description: "party_size is outside the named service's party_min..party_max.",
  },
  APPOINTMENT_TOO_LONG: {
    status: 400,
    description:
      'An appointment lasts at most 24 hours, and the time it occupies (with buffers or an explicit block) at most 48 hours.',
  },
  INVALID_WEEK: { status: 400, description: 'A service period week is malformed; the message names the day.' },
  WEBHOOK_TARGET_REFUSED: {
    status: 400,
    description:
      'A webhook URL is not allowed: not https in production, or its host resolves to a private, loopback or link-local address, or does not resolve.',
  },
  INVALID_HOURS: {
    status: 400,
    description:
      'Working hours are malformed: an interval does not close after it opens, intervals overlap, or a date repeats; the message names where.',
  },
  INVALID_ORIGIN: { status: 400, description: 'A CORS origin is not scheme://host[:port] (no path, no wildcard).' },
  BOOKING_PAGE_SLUG_REQUIRED: {
    status: 400,
    description: 'The booking page cannot be enabled without a booking_page_slug.',
  },
  BOOKING_PAGE_SLUG_RESERVED: {
    status: 400,
    description: "That booking_page_slug is a word the booking page's own routes use (assets, embed, manage, ...).",
  },
  CHALLENGE_FAILED: {
    status: 400,
    description:
      "The booking page's proof-of-work (ALTCHA) payload is missing, wrong, expired or already used; solve a new challenge.",
  },
  REQUEST_REFUSED: {
    status: 400,
    description: 'The booking page refused the request (a field only automated clients fill in was filled).',
  },
  CODE_INVALID: {
    status: 400,
    description: 'The email sign-in code is wrong; the message says how many tries are left.',
  },
  CODE_EXPIRED: {
    status: 400,
    description:
      'The email sign-in code has expired, was used, was replaced by a newer one, or was tried wrongly 5 times; ask for a new one.',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'Bodies must be application/json.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body is larger than the limit.' },
  MALFORMED_REQUEST: {
    status: 400,
    description: 'The request is not valid HTTP, or its body does not match its Content-Length.',
  },
  MALFORMED_URL: { status: 400, description: 'The path is not a valid URL (bad percent-encoding).' },
  URI_TOO_LONG: { status: 414, description: 'A path segment is longer than 200 characters.' },
  HEADERS_TOO_LARGE: { status: 431, description: 'The request headers are larger than the server accepts (16 KiB).' },
  REQUEST_TIMEOUT: { status: 408, description: 'The request was not received in time.' },
  WEAK_PASSWORD: {
    status: 400,
    description:
      'The password breaks the rules: at least 15 characters (8 once the person has a passkey), at most 256, not a commonly used one; the message says which.',
  },
  INVITATION_INVALID: {
    status: 400,
    description:
      'The invitation or setup link is unknown, expired, already used or replaced by a newer one; ask for a new one.',
  },
  PASSKEY_INVALID: {
    status: 400,
    description:
      'Adding a passkey failed: the registration was not started here, expired (5 minutes) or was already used, the response does not verify, or the passkey is already registered; nothing changed.',
  },
  INVALID_SHOP_DETAILS: {
    status: 400,
    description:
      'A shop detail is malformed: an address or about text too long, a phone that is not a UK number, a website not on https; the message names the field.',
  },

  // Identity and permission
  UNAUTHENTICATED: { status: 401, description: 'The bearer token is missing, malformed, badly signed or expired.' },
  WRONG_TOKEN_KIND: { status: 403, description: 'A customer token on a merchant route, or the reverse.' },
  INSUFFICIENT_SCOPE: { status: 403, description: 'The token lacks the scope this operation needs.' },
  MISSING_ENTITLEMENT: { status: 403, description: 'The store lacks the paid entitlement this operation needs.' },
  MISSING_PERMISSION: { status: 403, description: 'The staff member lacks the permission this operation needs.' },
  MANAGE_LINK_INVALID: {
    status: 401,
    description:
      "The booking's manage link is not valid, has expired (the appointment ended) or the booking was cancelled.",
  },
  ROLE_FORBIDDEN: {
    status: 403,
    description:
      "The signed-in staff member's role (or an API key's) does not allow this operation, on this record, or this change of roles; nothing changed.",
  },
  CROSS_ORIGIN_REFUSED: {
    status: 403,
    description:
      "A write authenticated by the session cookie came from another origin (Origin or Sec-Fetch-Site); send it from the service's own origin or use a bearer token.",
  },
  SIGN_IN_FAILED: {
    status: 401,
    description:
      'The email and password do not match an enabled staff account (the same answer whether or not the email has one).',
  },
  LAST_OWNER: { status: 409, description: 'The change would leave the store without an enabled owner.' },
  OIDC_NOT_CONFIGURED: {
    status: 404,
    description:
      'Sign-in through an identity provider is off: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are not set.',
  },
  ADMIN_DISABLED: { status: 404, description: 'The operator surface is off (ADMIN_TOKEN is not set).' },

  // Lookup
  NOT_FOUND: {
    status: 404,
    description: "No such record in the authenticated store (another store's record reads the same).",
  },
  UNKNOWN_CUSTOMERS: {
    status: 404,
    description:
      "A bulk customer change named ids that are not this store's customers; nothing changed. The message gives the count.",
  },
  ROUTE_NOT_FOUND: { status: 404, description: 'No such route.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The route exists but not for this method.' },

  // State
  SLOT_TAKEN: {
    status: 409,
    description: 'The unit is already occupied for part of that time (booking or move refused).',
  },
  UNIT_UNAVAILABLE: { status: 409, description: 'The unit is held mid-checkout or on time off for part of that time.' },
  UNIT_NOT_BOOKABLE: { status: 409, description: 'The unit is inactive or not bookable.' },
  UNIT_HAS_BOOKINGS: {
    status: 409,
    description:
      'The unit still has upcoming appointments; move or cancel them before deactivating it or making it unbookable.',
  },
  SERVICE_ARCHIVED: { status: 409, description: 'The service is archived and cannot be newly booked.' },
  STALE_SLOT: { status: 409, description: 'A walk-in seat lost the race for the slot; the entry keeps its place.' },
  INVALID_TRANSITION: { status: 409, description: "The record's current status does not allow this operation." },
  NOT_YET_DUE: { status: 409, description: "A no-show cannot be marked before the appointment's time has passed." },
  ALREADY_CHECKED_IN: { status: 409, description: 'A checked-in guest showed up and cannot be a no-show.' },
  NO_SHOW_NOT_SETTLEABLE: { status: 409, description: 'A no-show is never settled here.' },
  CANCELLATION_WINDOW: { status: 409, description: 'Too close to the start to move without override.' },
  ENTRY_NOT_WAITING: { status: 409, description: 'Only a waiting queue entry can be called.' },
  WALK_INS_DISABLED: { status: 409, description: 'The store takes appointments only: walk-ins cannot join its queue.' },
  CUSTOMER_BLOCKED: { status: 409, description: 'The customer is blocked at this store.' },
  PHONE_IN_USE: { status: 409, description: 'That phone number belongs to another customer.' },
  EMAIL_IN_USE: { status: 409, description: 'That email belongs to another customer.' },
  CUSTOMER_ERASED: { status: 409, description: 'The customer asked to be deleted and can no longer be edited.' },
  WEBHOOK_ENDPOINT_DISABLED: {
    status: 409,
    description:
      'The webhook endpoint is disabled: enable it (PATCH enabled true) before retrying or replaying deliveries.',
  },
  SLOT_UNAVAILABLE: {
    status: 409,
    description: 'That start is not offered online (availability would not show it), or it was taken meanwhile.',
  },
  HOLD_EXPIRED: {
    status: 409,
    description: 'The hold lapsed (hold_minutes passed) before it was confirmed; search again.',
  },
  HOLD_RELEASED: { status: 409, description: 'The hold was released before it was confirmed; search again.' },
  NOT_PENDING_PAYMENT: {
    status: 409,
    description: 'Only a pending_payment appointment can have its deposit marked paid.',
  },
  CONFLICT: { status: 409, description: 'The request conflicts with the current state of a record.' },
  BOOKING_PAGE_SLUG_TAKEN: { status: 409, description: 'Another store already uses that booking_page_slug.' },

  // Events
  CURSOR_EXPIRED: {
    status: 410,
    description:
      'The feed or stream cursor is older than the retained event history (90 days); restart from the beginning of the feed.',
  },

  // Idempotency
  IDEMPOTENCY_IN_PROGRESS: { status: 409, description: 'A request with this Idempotency-Key is still running.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, description: 'This Idempotency-Key was used with a different request.' },

  // Import (src/imports/)
  IMPORT_EMPTY: { status: 400, description: 'The CSV file is empty, or has a header row and no rows under it.' },
  INVALID_CSV: {
    status: 400,
    description: 'The file is not CSV (an unclosed quote, a NUL byte, or no header row); the message names the line.',
  },
  INVALID_ENCODING: {
    status: 400,
    description: 'The file is not UTF-8 (with or without a BOM); save it as CSV UTF-8 and send it again.',
  },
  UNKNOWN_COLUMN: {
    status: 400,
    description:
      'A column of the header is not one the import knows and the mapping does not name it; the message names it.',
  },
  IMPORT_TOO_LARGE: { status: 413, description: 'The CSV file is larger than IMPORT_LIMIT_BYTES; split it.' },

  // Limits and failures
  RATE_LIMITED: { status: 429, description: 'Too many requests; retry after the Retry-After seconds.' },
  TOO_MANY_CODES: {
    status: 429,
    description:
      'Too many sign-in codes asked for this email (5 an hour) or from this address (20 an hour); retry after the Retry-After seconds.',
  },
  TOO_MANY_SIGN_INS: {
    status: 429,
    description:
      'Too many failed sign-ins for this account (10 in 15 minutes) or from this address (100 an hour); retry after the Retry-After seconds. Nothing locks an account for good.',
  },
  TOO_MANY_HOLDS: {
    status: 429,
    description:
      'This address already keeps the most live booking-page holds allowed; retry after the Retry-After seconds, when one lapses.',
  },
  INTERNAL: { status: 500, description: 'Unexpected failure; nothing about it is disclosed.' },
  SERVICE_UNAVAILABLE: { status: 503, description: 'The database cannot be reached; retry shortly.' },

  // Classes (src/classes/)
  OCCURRENCE_IN_PAST: { status: 400, description: 'A class occurrence must start in the future.' },
  CLASS_ARCHIVED: { status: 409, description: 'The class is archived and cannot be scheduled.' },
  OCCURRENCE_EXISTS: { status: 409, description: 'The class is already scheduled at that start.' },
  OCCURRENCE_CANCELLED: { status: 409, description: 'The class occurrence was cancelled and takes no bookings.' },
  CLASS_STARTED: { status: 409, description: 'The class has started (a drop-in: ended) and takes no more bookings.' },
  CLASS_FULL: {
    status: 409,
    description: 'The class is full and within its promotion cutoff, so its waitlist is closed.',
  },
  ALREADY_BOOKED: {
    status: 409,
    description: 'The person already has a booking or waitlist place for this class occurrence.',
  },
  OFFER_EXPIRED: {
    status: 409,
    description: 'The offered seat was not accepted in time; it went to the next in line.',
  },
  NO_OFFER: { status: 409, description: 'The class booking has no offered seat to accept.' },
  CAPACITY_BELOW_BOOKED: {
    status: 409,
    description: 'A capacity below the seats already booked and offered in an occurrence it applies to.',
  },
  CLASS_SCHEDULED: { status: 409, description: 'The unit teaches a class in that time (time-off cannot cover it).' },
  SIGN_IN_UNAVAILABLE: {
    status: 503,
    description:
      'This deployment has no way to send a sign-in code by that channel (production without SMTP_URL or an SMS provider); the booking page says so with page.sign_in.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERRORS;
