import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';

const t = await startTestApp();

test('the OpenAPI document lists every appointment operation with its operationId', async () => {
  const res = await call(t.app, 'GET', '/openapi.json');
  assert.equal(res.status, 200);
  const paths = res.body.paths;
  const expected: Record<string, string> = {
    '/api/v1/bookings/appointments': 'createAppointment',
    '/api/v1/bookings/appointments/cancel': 'cancelAppointment',
    '/api/v1/bookings/appointments/check-in': 'checkInAppointment',
    '/api/v1/bookings/appointments/complete': 'completeAppointment',
    '/api/v1/bookings/appointments/no-show': 'markAppointmentNoShow',
    '/api/v1/bookings/appointments/reschedule': 'rescheduleAppointment',
    '/api/v1/bookings/appointments/settle': 'settleAppointment',
  };
  for (const [path, operationId] of Object.entries(expected)) {
    assert.equal(paths[path]?.post?.operationId, operationId, path);
    assert.ok(paths[path].post.responses['200'], `${path} documents its 200`);
  }
});
