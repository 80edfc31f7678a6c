// The memory of everything a service runs: its own process and every descendant (the embedded
// PostgreSQL's postmaster, its backends and background processes, a watchdog), as the sum of their
// proportional set sizes (Pss, /proc/<pid>/smaps_rollup: shared pages split between the processes
// sharing them, so the shared buffers count once) and of their resident sets (RSS, which counts
// shared pages once per process). Sampled every 200 ms.
import fs from 'node:fs';

/**
 * /proc/<pid>/stat's fields from the third on (state, ppid, ...): the command name before them may
 * hold spaces and parentheses, so they are taken after the last ')'. Field n of proc(5) is at n - 3.
 */
function statFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function children(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(statFields(entry)[1]);
      const list = byParent.get(ppid) ?? [];
      list.push(Number(entry));
      byParent.set(ppid, list);
    } catch {
      // gone while listed
    }
  }
  return byParent;
}

export function processTree(root: number): number[] {
  const byParent = children();
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(byParent.get(out[i]) ?? []));
  return out;
}

export interface TreeSample {
  pssKb: number;
  rssKb: number;
  processes: number;
  /** The root process's own share (the service's node), so a peak splits into node and the rest. */
  rootPssKb: number;
}

export function treeMemory(root: number): TreeSample {
  let pssKb = 0;
  let rssKb = 0;
  let processes = 0;
  let rootPssKb = 0;
  for (const pid of processTree(root)) {
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const pss = Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pssKb += pss;
      if (pid === root) rootPssKb = pss;
      rssKb += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      processes++;
    } catch {
      // exited between the listing and the read
    }
  }
  return { pssKb, rssKb, processes, rootPssKb };
}

/** CPU time the tree has used, in ms: the root process (node) and the rest (PostgreSQL). */
export interface TreeCpu {
  nodeMs: number;
  otherMs: number;
  /** The part of each spent in the kernel (stime, cstime): socket reads and writes, wake-ups, fsync. */
  nodeKernelMs: number;
  otherKernelMs: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * utime + stime of every process in the tree, with cutime + cstime: a child that exited and was
 * reaped (an autovacuum worker, by the postmaster) is counted in its parent's, and only once reaped.
 */
export function treeCpu(root: number): TreeCpu {
  const cpu: TreeCpu = { nodeMs: 0, otherMs: 0, nodeKernelMs: 0, otherKernelMs: 0 };
  for (const pid of processTree(root)) {
    try {
      // Fields 14-17: utime, stime, cutime, cstime.
      const f = statFields(pid);
      const ms = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
      const kernelMs = (Number(f[12]) + Number(f[14])) * TICK_MS;
      if (pid === root) {
        cpu.nodeMs += ms;
        cpu.nodeKernelMs += kernelMs;
      } else {
        cpu.otherMs += ms;
        cpu.otherKernelMs += kernelMs;
      }
    } catch {
      // exited between the listing and the read
    }
  }
  return cpu;
}

/**
 * The whole machine's CPU time so far, in ms summed over its cores (/proc/stat's first line), and
 * this process's own (the bench: the load generator and the samplers). busy: user, nice, system, irq
 * and softirq; idle: idle and iowait; steal: time the hypervisor gave to other machines.
 */
export interface MachineCpu {
  busyMs: number;
  idleMs: number;
  stealMs: number;
  benchMs: number;
}

export function machineCpu(): MachineCpu {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const own = process.cpuUsage();
  return {
    busyMs: (user + nice + system + irq + softirq) * TICK_MS,
    idleMs: (idle + iowait) * TICK_MS,
    stealMs: steal * TICK_MS,
    benchMs: (own.user + own.system) / 1000,
  };
}

/** Samples the tree every 200 ms; peak and mean since the last reset, in MB. */
export class TreeSampler {
  private samples: TreeSample[] = [];
  private peak: TreeSample = { pssKb: 0, rssKb: 0, processes: 0, rootPssKb: 0 };
  private readonly timer: NodeJS.Timeout;
  private readonly root: number;
  constructor(root: number) {
    this.root = root;
    this.timer = setInterval(() => this.sample(), 200);
    this.timer.unref();
  }
  sample(): TreeSample {
    const s = treeMemory(this.root);
    this.samples.push(s);
    if (s.pssKb > this.peak.pssKb) this.peak = { ...s, rssKb: Math.max(s.rssKb, this.peak.rssKb) };
    else if (s.rssKb > this.peak.rssKb) this.peak.rssKb = s.rssKb;
    return s;
  }
  reset() {
    this.samples = [];
    this.peak = { pssKb: 0, rssKb: 0, processes: 0, rootPssKb: 0 };
  }
  summary(): {
    peakPssMb: number;
    peakNodePssMb: number;
    peakProcesses: number;
    peakRssMb: number;
    meanPssMb: number;
    maxProcesses: number;
    samples: number;
  } {
    this.sample();
    const mb = (kb: number) => Math.round(kb / 102.4) / 10;
    const mean = this.samples.reduce((a, s) => a + s.pssKb, 0) / this.samples.length;
    return {
      peakPssMb: mb(this.peak.pssKb),
      // At the peak sample: node's own Pss (the rest is PostgreSQL's processes) and how many processes.
      peakNodePssMb: mb(this.peak.rootPssKb),
      peakProcesses: this.peak.processes,
      peakRssMb: mb(this.peak.rssKb),
      meanPssMb: mb(mean),
      maxProcesses: Math.max(...this.samples.map((s) => s.processes)),
      samples: this.samples.length,
    };
  }
  stop() {
    clearInterval(this.timer);
  }
}
