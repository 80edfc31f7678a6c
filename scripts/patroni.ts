// node scripts/patroni.ts up|down|status: builds (or tears down) the failover topology of
// deploy/patroni/ on this machine: etcd, two Patroni nodes (PostgreSQL 15), HAProxy on 5470/5471.
// Idempotent: `up` first removes whatever an earlier run left. Needs root and Debian's packages
// (apt-get install -y patroni etcd-server haproxy). See deploy/patroni/README.md.
import { clusterDown, clusterUp, leader, READ_URL, WRITE_URL } from '../reliability/patroni-cluster.ts';

const command = process.argv[2] ?? 'status';
if (command === 'up') {
  await clusterUp({ log: (line) => console.log(line) });
  console.log(`DATABASE_URL=${WRITE_URL}\nDATABASE_READ_URL=${READ_URL}`);
} else if (command === 'down') {
  await clusterDown();
  console.log('down');
} else if (command === 'status') {
  console.log(`leader: ${(await leader()) ?? 'none'}`);
} else {
  console.error('usage: node scripts/patroni.ts up|down|status');
  process.exit(2);
}
