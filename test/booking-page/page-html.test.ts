// The booking page's HTML rendered for its shop (issue 41): the head a link preview reads, the
// services before any script runs, every store-supplied string escaped (as text in HTML, \u003c in
// JSON-LD), and the same 404 for an unknown or disabled page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { PAGE_DIST } from '../../src/booking-page/page-files.routes.ts';
import { renderPage } from '../../src/booking-page/page-html.ts';
import { call } from '../support/http.ts';
import { pageShop, setStore, BOOK, SLUG } from './support.ts';

const built = existsSync(`${PAGE_DIST}index.html`);
const SETTINGS = '/api/v1/bookings/settings';
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Book an appointment</title>
    <script type="module" crossorigin src="/book/assets/index-x.js"></script>
    <link rel="stylesheet" crossorigin href="/book/assets/index-x.css">
  </head>
  <body>
    <div id="app"></div>
  </body>
</html>`;

const meta = (html: string, attr: 'name' | 'property', key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)" />`).exec(html)?.[1];
const scriptBlock = (html: string, type: string) =>
  new RegExp(`<script type="${type}"[^>]*>([^<]*)</script>`).exec(html)?.[1];

async function window(name = 'Test Salon') {
  const w = await pageShop();
  await setStore(w.t, w.storeId, { name });
  const res = await call(w.t.app, 'PATCH', SETTINGS, {
    token: w.merchant,
    body: {
      store_id: w.storeId,
      address: '12 High Street\nLeeds LS1 4AB',
      phone: '0113 496 0000',
      website: 'https://salon.example',
      about: 'Cuts & colour since 1990.',
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const page = (await call(w.t.app, 'GET', BOOK)).body.page;
  return { w, page };
}

test('the head names the shop: title, description, Open Graph and Twitter tags, canonical URL, LocalBusiness JSON-LD; the services are in the markup', async () => {
  const { w, page } = await window();
  const html = renderPage(TEMPLATE, 'body{margin:0}', {
    page,
    url: `https://book.example/book/${SLUG}`,
    manage: false,
  });
  assert.match(html, /<title>Book at Test Salon<\/title>/);
  assert.equal(meta(html, 'name', 'description'), 'Cuts &amp; colour since 1990.');
  assert.equal(meta(html, 'property', 'og:title'), 'Book at Test Salon');
  assert.equal(meta(html, 'property', 'og:description'), 'Cuts &amp; colour since 1990.');
  assert.equal(meta(html, 'property', 'og:url'), `https://book.example/book/${SLUG}`);
  assert.equal(meta(html, 'property', 'og:type'), 'website');
  assert.equal(meta(html, 'name', 'twitter:card'), 'summary');
  assert.equal(meta(html, 'name', 'twitter:title'), 'Book at Test Salon');
  assert.match(html, /<link rel="canonical" href="https:\/\/book\.example\/book\/test-salon" \/>/);
  // The stylesheet is inlined: no render-blocking request.
  assert.match(html, /<style>body\{margin:0\}<\/style>/);
  assert.doesNotMatch(html, /<link rel="stylesheet"/);

  const ld = JSON.parse(scriptBlock(html, 'application/ld\\+json')!);
  assert.equal(ld['@type'], 'LocalBusiness');
  assert.equal(ld.name, 'Test Salon');
  assert.equal(ld.address, '12 High Street, Leeds LS1 4AB');
  assert.equal(ld.telephone, '+441134960000');
  assert.equal(ld.url, 'https://salon.example/');
  // The test shop's hours: 09:00-17:00 every day, Monday first.
  assert.equal(ld.openingHoursSpecification.length, 7);
  assert.deepEqual(ld.openingHoursSpecification[0], {
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: 'https://schema.org/Monday',
    opens: '09:00',
    closes: '17:00',
  });

  // Before any script: the shop, its contact line and its services with duration and price.
  const app = /<div id="app">(.*?)<\/div>\n/s.exec(html)![1];
  assert.match(app, /<h1 data-testid="store-name">Test Salon<\/h1>/);
  assert.match(app, /<a href="tel:\+441134960000">0113 496 0000<\/a>/);
  const service = await w.t.db.query<{ name: string }>('SELECT name FROM services WHERE id = $1', [w.serviceId]);
  assert.ok(app.includes(`<strong>${service.rows[0].name}</strong> · 1 h · £40.00`), app);
  assert.match(app, /<ul class="times" aria-label="Times"><\/ul>/);
  // The config the script starts from is the API's own answer, with the zone's short names by offset
  // (the page labels its times without building an Intl formatter: booking-page/src/time.ts).
  assert.deepEqual(JSON.parse(scriptBlock(html, 'application/json')!), { page, zones: { 0: 'GMT', 60: 'BST' } });
});

test('a shop named </title><script> renders as text in the head, the markup and the JSON blocks', async () => {
  const hostile = '</title><script>alert(1)</script> & "Co" <!--';
  const { page } = await window(hostile);
  page.shop.about = '</script><script>alert(2)</script>';
  page.services[0].name = '<img src=x onerror=alert(3)>';
  const html = renderPage(TEMPLATE, null, { page, url: 'https://book.example/book/test-salon', manage: false });

  assert.equal((html.match(/<title>/g) ?? []).length, 1);
  assert.match(
    html,
    /<title>Book at &lt;\/title&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;Co&quot; &lt;!--<\/title>/,
  );
  // Only the page's own three script elements: the module, JSON-LD and the config.
  assert.equal((html.match(/<script/g) ?? []).length, 3, html);
  assert.equal((html.match(/<\/script>/g) ?? []).length, 3);
  assert.ok(!html.includes('<img'), 'no element from a service name');
  assert.ok(!html.includes('alert(2)</script>'), 'the about text cannot close a script block');
  const ldText = scriptBlock(html, 'application/ld\\+json')!;
  assert.ok(ldText.includes('\\u003c/title\\u003e'), 'inside JSON-LD, < is \\u003c');
  assert.equal(JSON.parse(ldText).name, hostile, 'and reads back as the name');
  assert.equal(JSON.parse(scriptBlock(html, 'application/json')!).page.store_name, hostile);
  assert.equal(
    meta(html, 'property', 'og:site_name'),
    '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot; &lt;!--',
  );
  assert.match(html, /<h1 data-testid="store-name">&lt;\/title&gt;&lt;script&gt;alert\(1\)/);
});

test('GET /book/{slug} serves the rendered page (no-cache, not no-store); the manage page is not indexed; unknown or disabled answers the same 404', {
  skip: !built && 'booking-page/dist is not built',
}, async () => {
  const { w } = await window('Nail Bar </title>');
  const res = await w.t.app.inject({ method: 'GET', url: `/book/${SLUG}` });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.equal(res.headers['cache-control'], 'no-cache');
  assert.match(res.body, /<title>Book at Nail Bar &lt;\/title&gt;<\/title>/);
  assert.match(res.body, /<meta property="og:url" content="[^"]+\/book\/test-salon" \/>/);
  assert.match(res.body, /<script type="module" crossorigin src="\/book\/assets\/index-[\w-]+\.js"><\/script>/);
  assert.match(res.body, /<style>/);
  assert.doesNotMatch(res.body, /rel="stylesheet"/);

  const manage = await w.t.app.inject({ method: 'GET', url: `/book/${SLUG}/manage` });
  assert.equal(manage.statusCode, 200);
  assert.match(manage.body, /<title>Your booking at Nail Bar &lt;\/title&gt;<\/title>/);
  assert.match(manage.body, /<meta name="robots" content="noindex" \/>/);
  assert.doesNotMatch(manage.body, /og:title|ld\+json/);

  const unknown = await w.t.app.inject({ method: 'GET', url: '/book/no-such-shop' });
  await setStore(w.t, w.storeId, { booking_page_enabled: false });
  const off = await w.t.app.inject({ method: 'GET', url: `/book/${SLUG}` });
  for (const r of [unknown, off]) {
    assert.equal(r.statusCode, 404);
    assert.equal(r.body, 'There is no booking page here.\n');
    assert.ok(!r.body.includes('Nail Bar'));
  }
});
