// The store's booking settings (GET/PATCH /api/v1/bookings/settings once that endpoint exists).
export function Settings() {
  return (
    <section aria-labelledby="settings-title">
      <div class="toolbar"><h1 id="settings-title">Settings</h1></div>
      <p class="notice">Booking settings are not available on this server yet.</p>
    </section>
  );
}
