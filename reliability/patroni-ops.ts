// What an operator (or a bad day) does to the running failover topology (patroni-cluster.ts): change
// the cluster's settings, switch over, stall replication.
import path from 'node:path';
import { BASE, type NodeName, readPid, run } from './patroni-cluster.ts';

/** The cluster's settings in etcd, changed the operator's way (`patronictl edit-config --set`). */
export async function setClusterConfig(settings: Record<string, string>): Promise<void> {
  const args = ['-c', path.join(BASE, 'node1.yml'), 'edit-config', '--force'];
  for (const [k, v] of Object.entries(settings)) args.push('--set', `${k}=${v}`);
  await run('/usr/bin/patronictl', args);
}

/** A planned switchover to candidate (`patronictl switchover`). */
export async function switchover(from: NodeName, to: NodeName): Promise<string> {
  const { stdout } = await run('/usr/bin/patronictl', [
    '-c',
    path.join(BASE, 'node1.yml'),
    'switchover',
    '--leader',
    from,
    '--candidate',
    to,
    '--force',
  ]);
  return stdout;
}

/**
 * Freezes (SIGSTOP) or thaws a node's WAL senders: the network from the primary to its replica
 * stalls, so WAL the primary writes meanwhile stays on the primary. Returns the pids (to thaw them).
 */
export async function freezeWalSenders(n: NodeName, freeze: boolean, pids?: number[]): Promise<number[]> {
  if (!pids) {
    const pm = readPid(path.join(BASE, n, 'data', 'postmaster.pid'));
    if (!pm) return [];
    const out = await run('pgrep', ['-P', String(pm), '-f', 'walsender']).then(
      (r) => r.stdout.trim(),
      () => '',
    );
    pids = out ? out.split('\n').map(Number) : [];
  }
  for (const pid of pids) {
    try {
      process.kill(pid, freeze ? 'SIGSTOP' : 'SIGCONT');
    } catch {
      /* gone */
    }
  }
  return pids;
}
