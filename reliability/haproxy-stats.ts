// What HAProxy's health checks think of each server, read from its admin socket (`show stat`), for
// the failover topology (deploy/patroni/haproxy.cfg: listeners `primary` and `replicas`).
import net from 'node:net';

/** Each server's state as HAProxy's checks see it ("primary/node1" -> "UP"); {} when HAProxy does not answer. */
export async function haproxyStates(socketPath: string): Promise<Record<string, string>> {
  const csv = await new Promise<string>((resolve) => {
    let out = '';
    const socket = net.connect(socketPath, () => socket.write('show stat\n'));
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
    socket.on('error', () => resolve(''));
  });
  const [header, ...rows] = csv.split('\n').filter(Boolean);
  if (!header?.startsWith('# ')) return {};
  const cols = header.slice(2).split(',');
  const at = (name: string) => cols.indexOf(name);
  const states: Record<string, string> = {};
  for (const row of rows) {
    const f = row.split(',');
    if (f[at('svname')] !== 'FRONTEND' && f[at('svname')] !== 'BACKEND')
      states[`${f[at('pxname')]}/${f[at('svname')]}`] = f[at('status')];
  }
  return states;
}

/**
 * Until its checks have run, HAProxy counts every server as up (2.6 has no `init-state`), so a
 * connection to the write port in its first second may reach the replica (which refuses writes:
 * 25006). True once the checks agree with Patroni: `lead` alone up for writes and, when `replica`,
 * `follower` alone up for reads.
 */
export async function haproxySettled(
  socketPath: string,
  lead: string,
  follower: string,
  replica: boolean,
): Promise<boolean> {
  const s = await haproxyStates(socketPath);
  const writes = s[`primary/${lead}`] === 'UP' && !!s[`primary/${follower}`]?.startsWith('DOWN');
  const reads = !replica || (s[`replicas/${follower}`] === 'UP' && !!s[`replicas/${lead}`]?.startsWith('DOWN'));
  return writes && reads;
}
