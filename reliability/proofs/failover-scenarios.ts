// The bad days the failover drill can stage (scripts/reliability-failover.ts --scenario=NAME).
// `sync` is the one CI runs; the others were run once and recorded (docs/decisions/failover.md):
// - sync: the primary's machine lost (kill -9 of its Patroni and PostgreSQL), synchronous replication;
// - async: the same with synchronous_mode off: how many acknowledged creates are lost;
// - replica-lost / replica-lost-strict: the synchronous standby's machine lost, with
//   synchronous_mode_strict false (the primary goes on alone) or true (writes stop until it is back);
// - etcd-lost: the configuration store lost (Patroni demotes the primary: no leader key, no primary);
// - haproxy-restart: HAProxy stopped and started again (every connection cut at once).
import * as cluster from '../patroni-cluster.ts';
import * as ops from '../patroni-ops.ts';
import { sleep } from '../env.ts';

/**
 * How long replication stalls before the primary dies in the async scenario: long enough to
 * acknowledge some bookings at the storm's rate, short enough that the replica stays within
 * maximum_lag_on_failover (1 MB) and Patroni still promotes it.
 */
const ASYNC_STALL_MS = Number(process.env.FAILOVER_ASYNC_STALL_MS ?? 1_500);

export const SCENARIOS = [
  'sync',
  'async',
  'replica-lost',
  'replica-lost-strict',
  'etcd-lost',
  'haproxy-restart',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface Disruption {
  what: string;
  /** How long the drill waits for a write to succeed before recovering by hand. */
  waitMs: number;
  /** The node whose machine was lost (the drill restarts it to rejoin). */
  killed?: cluster.NodeName;
  /** The drill did not cause the outage itself, so it cannot time it. */
  untimed?: boolean;
  /** When the outage began, when not at the end of disrupt() (HAProxy's restart: its kill). */
  startedAt?: number;
  /** When replication stalled before the kill (async): what was acknowledged since is on the primary alone. */
  stalledAt?: number;
  /** How long the loss lasts at least before recover() (the first write after it may come sooner). */
  holdMs?: number;
  /** What an operator does afterwards (start the lost machine again), awaited before the checks. */
  recover?: () => Promise<void>;
}

/** Cluster settings the scenario needs, applied before the storm the operator's way (patronictl edit-config). */
export async function prepare(scenario: Scenario): Promise<void> {
  const lead = await cluster.waitLeader(60_000);
  if (scenario === 'async') {
    await ops.setClusterConfig({ synchronous_mode: 'false' });
    await cluster.waitReplica(cluster.other(lead), 30_000, false);
    // Give Patroni a moment to clear synchronous_standby_names on the primary.
    await sleep(3_000);
  }
  if (scenario === 'replica-lost-strict') await ops.setClusterConfig({ synchronous_mode_strict: 'true' });
}

export async function disrupt(scenario: Scenario): Promise<Disruption> {
  // Whoever leads now (if something else already took the primary down, the new one, once elected).
  const lead = await cluster.waitLeader(60_000);
  switch (scenario) {
    case 'sync': {
      // Only with a synchronous standby to take over: if another hand already took a machine down,
      // killing the last primary would prove nothing. The drill then checks what the other loss did.
      const standby = cluster.other(lead);
      if (
        !(await cluster.waitReplica(standby, 30_000).then(
          () => true,
          () => false,
        ))
      ) {
        return {
          what: `no kill: ${standby} is not a running synchronous standby (lost already?); ${lead} leads`,
          waitMs: 60_000,
          killed: standby,
          untimed: true,
        };
      }
      await cluster.killNode(lead);
      return { what: `kill -9 of ${lead}'s Patroni and PostgreSQL (the primary)`, waitMs: 60_000, killed: lead };
    }
    case 'async': {
      // Replication a little behind, as over a real network under load: the primary's WAL senders
      // stall for ASYNC_STALL_MS (its WAL stays on it; nothing waits for the standby, so its commits
      // are acknowledged all the same), then the primary's machine dies with them.
      const senders = await ops.freezeWalSenders(lead, true);
      const stalledAt = Date.now();
      await sleep(ASYNC_STALL_MS);
      await cluster.killNode(lead);
      return {
        what: `replication stalled ${ASYNC_STALL_MS} ms (${senders.length} WAL sender frozen), then kill -9 of ${lead}'s Patroni and PostgreSQL (the primary)`,
        waitMs: 60_000,
        killed: lead,
        stalledAt,
      };
    }
    case 'replica-lost':
    case 'replica-lost-strict': {
      const replica = cluster.other(lead);
      await cluster.killNode(replica);
      return {
        what: `kill -9 of ${replica}'s Patroni and PostgreSQL (the synchronous standby)`,
        waitMs: 20_000,
        killed: replica,
        recover: async () => {
          await cluster.startNode(replica);
          await cluster.waitReplica(replica, 90_000);
        },
      };
    }
    case 'etcd-lost':
      cluster.killEtcd();
      return {
        what: 'kill -9 of etcd (the only member), started again 25 s later',
        // Long enough for Patroni to give up on the leader key (retry_timeout, ttl) and demote: the
        // primary goes on taking writes until then.
        waitMs: 25_000,
        holdMs: 25_000,
        recover: async () => {
          cluster.startEtcd();
          await cluster.waitWritable(60_000);
        },
      };
    case 'haproxy-restart': {
      // Every session through HAProxy is cut at once; for half a second nothing listens on 5470/5471;
      // then a new HAProxy counts both nodes up until its first checks (its first second may send a
      // write to the replica: 25006, answered 503 and retried).
      const startedAt = Date.now();
      cluster.killHaproxy();
      await sleep(500);
      await cluster.startHaproxy();
      return { what: 'HAProxy killed (kill -9) and started again 0.5 s later', waitMs: 30_000, startedAt };
    }
  }
}
