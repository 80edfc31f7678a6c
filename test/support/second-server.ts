// The second server of the "two server processes" races: a real `node src/server.ts` (as deployed, as
// the reliability proofs start it) on a test's database, signing with the test app's secret, with its
// background workers off and no rate limit in the way. Not started: call spawn(), and kill() after.
import { ADMIN_TOKEN, TEST_SECRET } from './app.ts';
import { freePort, ServerProcess } from '../../reliability/server-process.ts';

export async function secondServer(databaseUrl: string): Promise<ServerProcess> {
  return new ServerProcess({
    databaseUrl,
    port: await freePort(),
    name: 'second server',
    env: {
      AUTH_SECRET: TEST_SECRET,
      ADMIN_TOKEN,
      WORKER_ENABLED: 'false',
      MESSAGES_WORKER: 'false',
      RATE_LIMIT_GLOBAL_PER_MIN: '100000',
    },
  });
}
