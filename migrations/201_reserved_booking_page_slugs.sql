-- Slugs the booking page's own routes use cannot name a shop (issue 41): with the slug "assets" the
-- page's manage link, /book/assets/manage, was the static files' route, and "embed" sits beside
-- /book/embed.js. The list is src/bookings/settings/booking-page-slug.ts's RESERVED_SLUGS; the
-- constraint decides (a PATCH is refused as BOOKING_PAGE_SLUG_RESERVED), never a check in Node.
-- A store already using one had a page whose links broke: its slug is cleared and its page switched
-- off, so the merchant chooses another (the console shows the page as off, with no address).
UPDATE stores SET booking_page_enabled = false, booking_page_slug = NULL
 WHERE booking_page_slug IN ('admin', 'api', 'assets', 'book', 'console', 'docs', 'embed', 'embed-js', 'favicon', 'health', 'manage', 'static');

ALTER TABLE stores ADD CONSTRAINT stores_booking_page_slug_reserved
  CHECK (booking_page_slug IS NULL OR booking_page_slug NOT IN ('admin', 'api', 'assets', 'book', 'console', 'docs', 'embed', 'embed-js', 'favicon', 'health', 'manage', 'static'));
