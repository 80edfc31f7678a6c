// The settings' warning when online booking cannot confirm: this deployment has no way to send a
// sign-in code (production without SMTP_URL or an SMS provider), so the booking page shows the
// shop's phone and address instead of the sign-in step. Read from GET /api/v1/notifications/delivery.
import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../api.ts';
import type { Ok } from '../../../client/index.ts';

type Delivery = Ok<'/api/v1/notifications/delivery', 'get'>;

export function DeliveryWarning() {
  const { api } = useApp();
  const [delivery, setDelivery] = useState<Delivery | null>(null);
  useEffect(() => {
    void api.GET('/api/v1/notifications/delivery').then(({ data }) => data && setDelivery(data));
  }, []);
  if (!delivery) return null;
  if (delivery.sign_in === 'none') {
    return (
      <p class="error" role="alert" data-testid="cannot-confirm">
        Online booking cannot confirm: this service has no way to send sign-in codes (set SMTP_URL, or an SMS provider).
        Until then your booking page shows your phone number and address instead of the sign-in step.
      </p>
    );
  }
  if (delivery.dev_mailbox) {
    return (
      <p class="notice">
        Development: no SMTP_URL is set, so codes and messages go to the <a href="#/mailbox">Mailbox</a>, not to
        customers.
      </p>
    );
  }
  return null;
}
