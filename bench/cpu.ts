/**
 * CPU time of processes and of the whole machine, from /proc (Linux): where the cores went during a
 * load run. A process's figure is its user + system time, all its threads together; the machine's is
 * every core's busy time (everything but idle and I/O wait).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ): 100 on every common Linux, asked once. */
const TICKS_PER_SECOND = (() => {
  const asked = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(asked.stdout?.trim());
  return asked.status === 0 && n > 0 ? n : 100;
})();

const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;

/**
 * utime + stime (clock ticks) of a /proc/<pid>/stat line. The command name in parentheses may hold
 * spaces and parentheses itself, so the fields are counted from the last ')'.
 */
export function ticksOfProcessStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state (field 3) … utime is field 14, stime field 15 of the whole line.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(`not a /proc/<pid>/stat line: ${stat}`);
  return utime + stime;
}

/** Clock ticks of all cores together from /proc/stat's `cpu` line. */
export interface MachineTicks {
  /** Everything but idle and I/O wait. */
  busy: number;
  /** Interrupts and softirqs: mostly the kernel's network work, here loopback TCP, no process's. */
  interrupts: number;
  /** Time the hypervisor gave this virtual machine's cores to someone else. */
  steal: number;
}

export function ticksOfMachineStat(stat: string): MachineTicks {
  const line = stat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no cpu line');
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: user + nice + system + irq + softirq + steal, interrupts: irq + softirq, steal };
}

/** CPU ms a process has used so far; undefined once it is gone (or on another host). */
export function processCpuMs(pid: number): number | undefined {
  try {
    return toMs(ticksOfProcessStat(readFileSync(`/proc/${pid}/stat`, 'utf8')));
  } catch {
    return undefined;
  }
}

/** The short command name of a process (`/proc/<pid>/comm`); undefined when there is no such process here. */
export function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The machine's CPU ms so far, split as `MachineTicks`. */
export function machineCpuMs(): MachineTicks {
  const ticks = ticksOfMachineStat(readFileSync('/proc/stat', 'utf8'));
  return { busy: toMs(ticks.busy), interrupts: toMs(ticks.interrupts), steal: toMs(ticks.steal) };
}

/** Every process of the machine now: its name and CPU ms so far. */
export function allProcesses(): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(Number(entry), { name, ms: toMs(ticksOfProcessStat(stat)) });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/**
 * The processes outside `ours` that used the most CPU between two `allProcesses` snapshots, summed by
 * name (`postgres`, `node`, `vitest` …), busiest first: who else had the cores. One started in between
 * counts whole; one that ended in between is not seen.
 */
export function busiestOthers(
  before: Map<number, { name: string; ms: number }>,
  after: Map<number, { name: string; ms: number }>,
  ours: Set<number>,
  top = 4,
): { name: string; ms: number }[] {
  const byName = new Map<string, number>();
  for (const [pid, { name, ms }] of after) {
    if (ours.has(pid)) continue;
    const used = ms - (before.get(pid)?.ms ?? 0);
    if (used > 0) byName.set(name, (byName.get(name) ?? 0) + used);
  }
  return [...byName]
    .map(([name, ms]) => ({ name, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}

/**
 * CPU ms a changing set of processes used between `start` and `end`. A process that only exists at the
 * end was started within the interval and counts whole; one gone by the end counts up to the last time
 * it was seen (`sample` between the two keeps that close for a process that may end first).
 */
export class CpuMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();

  constructor(private readonly pids: () => number[] | Promise<number[]>) {}

  async start(): Promise<void> {
    for (const pid of await this.pids()) {
      const ms = processCpuMs(pid);
      if (ms !== undefined) {
        this.first.set(pid, ms);
        this.last.set(pid, ms);
      }
    }
  }

  async sample(): Promise<void> {
    for (const pid of await this.pids()) {
      const ms = processCpuMs(pid);
      if (ms !== undefined) this.last.set(pid, ms);
    }
  }

  /** The CPU ms of the interval and how many processes it covered. */
  async end(): Promise<{ ms: number; processes: number }> {
    await this.sample();
    let ms = 0;
    for (const [pid, now] of this.last) ms += now - (this.first.get(pid) ?? 0);
    return { ms, processes: this.last.size };
  }

  /** Every process measured so far. */
  get measured(): number[] {
    return [...this.last.keys()];
  }
}
