// npm run client:generate: builds the app in-process (on a database handle that is never
// connected: building the app sends no statement; nothing listens), reads its OpenAPI document and
// writes client/schema.d.ts.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPg } from '../src/platform/db/pg.adapter.ts';
import { GENERATED_FILE, openApiDocument, renderTypes } from './openapi-types.ts';

const db = openPg({ connectionString: 'postgresql://unused@127.0.0.1:1/unused', poolSize: 1 });
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, logger: false });
try {
  writeFileSync(GENERATED_FILE, await renderTypes(await openApiDocument(app)));
  console.log(`wrote ${GENERATED_FILE.pathname}`);
} finally {
  await app.close();
  await db.close();
}
