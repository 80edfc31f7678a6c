// npm run client:generate: builds the app in-process (an in-memory embedded database, no server,
// nothing listening), reads its OpenAPI document and writes client/schema.d.ts.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPglite } from '../src/platform/db/pglite.adapter.ts';
import { GENERATED_FILE, openApiDocument, renderTypes } from './openapi-types.ts';

const db = await openPglite({ dataDir: null });
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, logger: false });
try {
  writeFileSync(GENERATED_FILE, await renderTypes(await openApiDocument(app)));
  console.log(`wrote ${GENERATED_FILE.pathname}`);
} finally {
  await app.close();
  await db.close();
}
