// Test helper: feeds activity through the operator route, as the rest of the platform would.
import assert from 'node:assert/strict';
import type { App } from '../../../src/app.ts';
import { ADMIN_TOKEN } from '../../support/app.ts';
import { call } from '../../support/http.ts';

export async function feed(app: App, storeId: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(app, 'POST', `/admin/v1/stores/${storeId}/activity`, { token: ADMIN_TOKEN, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.activity.id;
}
