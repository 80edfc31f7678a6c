// The shop's window (issue 41): its contact line under the name, and a "Visit" section with the
// address and an OpenStreetMap link (a plain link, no map script), the phone, the website, its own
// words and the week's opening hours. Where no sign-in code can be sent (page.sign_in 'none'), the
// page offers the phone and address instead of the booking steps.
import type { PageInfo } from './types.ts';

type Shop = PageInfo['shop'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The name and a one-line way to reach the shop; the server renders the same (src/booking-page/page-html.ts). */
export function ShopHeader(props: { page: PageInfo }) {
  const { page } = props;
  const { shop } = page;
  const phone = shop.phone && <a href={`tel:${shop.phone}`}>{shop.phone_display ?? shop.phone}</a>;
  const map = shop.map_url && (
    <a href={shop.map_url} rel="noopener">
      Map
    </a>
  );
  return (
    <header class="shop">
      <h1 data-testid="store-name">{page.store_name}</h1>
      {(phone || map) && (
        <p class="contact">
          {phone}
          {phone && map ? ' · ' : null}
          {map}
        </p>
      )}
    </header>
  );
}

function Phone(props: { shop: Shop }) {
  const { shop } = props;
  return shop.phone ? (
    <a href={`tel:${shop.phone}`} data-testid="shop-phone">
      {shop.phone_display ?? shop.phone}
    </a>
  ) : null;
}

function Address(props: { shop: Shop }) {
  const { shop } = props;
  if (!shop.address) return null;
  return (
    <p class="address" data-testid="shop-address">
      {shop.address.split('\n').map((line, i) => (
        <span key={i}>
          {line}
          <br />
        </span>
      ))}
      {shop.map_url && (
        <a href={shop.map_url} rel="noopener" data-testid="map-link">
          See on OpenStreetMap
        </a>
      )}
    </p>
  );
}

export function Visit(props: { page: PageInfo }) {
  const { shop } = props.page;
  const hours = shop.opening_hours;
  if (!shop.address && !shop.phone && !shop.website && !shop.about && !hours.length) return null;
  return (
    <section class="visit" aria-labelledby="visit-title" data-testid="shop-window">
      <h2 id="visit-title">About {props.page.store_name}</h2>
      {shop.about && (
        <p class="about" data-testid="shop-about">
          {shop.about}
        </p>
      )}
      <Address shop={shop} />
      {shop.phone && (
        <p>
          Phone: <Phone shop={shop} />
        </p>
      )}
      {shop.website && (
        <p>
          Website:{' '}
          <a href={shop.website} rel="noopener" data-testid="shop-website">
            {shop.website.replace(/^https:\/\/|\/$/g, '')}
          </a>
        </p>
      )}
      {hours.length > 0 && (
        <table class="hours" data-testid="opening-hours">
          <caption>Opening hours</caption>
          <tbody>
            {/* Monday first, every day of the week: a day missing from the list is closed. */}
            {[1, 2, 3, 4, 5, 6, 0].map((d) => {
              const day = hours.find((h) => h.weekday === d);
              return (
                <tr key={d}>
                  <th scope="row">{DAYS[d]}</th>
                  <td>{day ? `${day.open}–${day.close}` : 'Closed'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** In place of the booking steps when no code can be sent: the customer books by calling or calling in. */
export function BookByPhone(props: { page: PageInfo }) {
  const { shop } = props.page;
  return (
    <section class="card" aria-labelledby="by-phone-title" data-testid="book-by-phone">
      <h2 id="by-phone-title">Book by phone</h2>
      <p>
        Online booking is not available at the moment.
        {shop.phone || shop.address ? ' Please call the shop or call in:' : ' Please contact the shop.'}
      </p>
      {shop.phone && (
        <p class="big">
          <Phone shop={shop} />
        </p>
      )}
      <Address shop={shop} />
    </section>
  );
}
