/**
 * Section 6 (issue 15): the default list page at one fixed concurrency through one instance directly,
 * one instance behind HAProxy, and two instances behind HAProxy (round robin), each instance a real
 * `server/server.ts` process on the benchmark's PostgreSQL database. Per row the throughput and latency
 * (autocannon), and where the CPU went: the instances, HAProxy, the PostgreSQL backends of this
 * database, the load generator, the kernel's interrupt work, this process, and the rest of the machine
 * (PostgreSQL's own background work and anything else running, its busiest processes by name), each
 * also in ms per request.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { allProcesses, busiestOthers, CpuMeter, machineCpuMs, processName } from './cpu.ts';
import { findHaproxy, haproxyConfig, serverStates } from './haproxy.ts';
import { login, request } from './http.ts';
import { freePort, processTree, start, stop, waitForLine, waitUntil } from './processes.ts';
import { autocannon } from './throughput.ts';

/** Connections of the load generator in every row: past the point where one instance saturates. */
export const INSTANCES_CONNECTIONS = 16;
/** Each instance's pool: the default of DATABASE_POOL_SIZE. */
const POOL_SIZE = 10;

export type Setup = 'direct' | 'haproxy-1' | 'haproxy-2';
export const SETUPS: { setup: Setup; label: string; instances: 1 | 2; balancer: boolean }[] = [
  { setup: 'direct', label: '1 instance, direct', instances: 1, balancer: false },
  { setup: 'haproxy-1', label: '1 instance, HAProxy', instances: 1, balancer: true },
  { setup: 'haproxy-2', label: '2 instances, HAProxy', instances: 2, balancer: true },
];

/** CPU ms of one run, by where it went; `postgres` undefined when the database is on another host. */
export interface CpuSplit {
  instances: number;
  haproxy: number;
  postgres: number | undefined;
  loadGenerator: number;
  /** This process (the bench; idle but for reading /proc). */
  bench: number;
  /** Interrupts and softirqs (the kernel's loopback network work), and the hypervisor's steal. */
  interrupts: number;
  steal: number;
  /** The machine's busy time minus all of the above. */
  other: number;
  machine: number;
}

export interface InstancesRow {
  setup: Setup;
  label: string;
  instances: number;
  balancer: boolean;
  connections: number;
  requests: number;
  seconds: number;
  /** Wall time the CPU was measured over (the run and the load generator's start and end). */
  cpuSeconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMs: CpuSplit;
  /** CPU ms per request, the same split. */
  cpuPerRequest: CpuSplit;
  /** CPU ms of each instance (web-1, web-2) in the run: the round robin's split, an idle one's cost. */
  instanceEach: number[];
  /** PostgreSQL backends measured (the pools of the instances and of the bench process). */
  postgresBackends: number;
  /** Who else used the machine during the run: the busiest other processes by name, CPU ms. */
  busiestOthers: { name: string; ms: number }[];
}

/** The split per request (undefined stays undefined). */
export function perRequest(cpu: CpuSplit, requests: number): CpuSplit {
  const per = (ms: number) => (requests > 0 ? ms / requests : NaN);
  return {
    instances: per(cpu.instances),
    haproxy: per(cpu.haproxy),
    postgres: cpu.postgres === undefined ? undefined : per(cpu.postgres),
    loadGenerator: per(cpu.loadGenerator),
    bench: per(cpu.bench),
    interrupts: per(cpu.interrupts),
    steal: per(cpu.steal),
    other: per(cpu.other),
    machine: per(cpu.machine),
  };
}

/** The instance's process and whatever it started (tsx starts none today; counted all the same). */
const treeOf = (child: ChildProcess) => (child.pid === undefined ? [] : processTree(child.pid));

export async function measureInstances(
  databaseUrl: string,
  path: string,
  options: { seconds: number; warmupSeconds: number; log: (line: string) => void },
): Promise<InstancesRow[]> {
  const haproxyBinary = findHaproxy();
  if (!haproxyBinary) throw new Error('no haproxy binary (Debian: apt-get install haproxy)');
  const folder = mkdtempSync(join(tmpdir(), 'bench-instances-'));
  // Also on Ctrl-C, where run.ts stops the children and exits without reaching the finally below.
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  process.once('exit', removeFolder);
  const admin = new pg.Client({ connectionString: databaseUrl });
  admin.on('error', () => undefined);
  const instances: { child: ChildProcess; base: string }[] = [];
  let haproxy: ChildProcess | undefined;
  try {
    await admin.connect();
    // The backends of this database: the instances' pools and LISTEN connections, and the bench's own
    // (idle in this section). On a database on another host their pids are not ours to read.
    const backends = async () => {
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity
         where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      return rows.map((r) => r.pid).filter((pid) => processName(pid)?.startsWith('postgres'));
    };

    // Both instances at once, as the balancer test starts them: the database is migrated and seeded
    // already (the data section), so neither has more to do than check that.
    const ports = await Promise.all([freePort(), freePort()]);
    for (const [i, port] of ports.entries()) {
      const child = start(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        DATA_DIR: join(folder, `web-${i + 1}`),
        SEED: 'none',
        // Requests are not logged, as in the in-process app of the other sections (logger off).
        LOG_LEVEL: 'warn',
        SHUTDOWN_DRAIN_MS: '0',
        TRUST_PROXY: '127.0.0.1',
        ACCESS_TOKEN_SECONDS: String(4 * 3600),
      });
      instances.push({ child, base: `http://127.0.0.1:${port}` });
    }
    await Promise.all(instances.map(({ child }) => waitForLine(child, /Service desk running/, 180_000)));
    const token = await login(instances[0]!.base, 'admin@example.com');
    const auth = [`Authorization=Bearer ${token}`];
    for (const { base } of instances) {
      const page = await request(base + path, { headers: { authorization: `Bearer ${token}` } });
      if (page.status !== 200) throw new Error(`the default list on ${base} answered ${page.status}`);
    }
    // Each instance warmed up on its own first (JIT, pool, PostgreSQL's cache), so that the second is
    // as warm in the last row as the first is in the first: a cold instance spends more CPU per call.
    options.log(`  warming up both instances …`);
    for (const { base } of instances) {
      await autocannon(base + path, INSTANCES_CONNECTIONS, 2 * options.warmupSeconds, auth);
    }

    const rows: InstancesRow[] = [];
    for (const { setup, label, instances: count, balancer } of SETUPS) {
      let target = instances[0]!.base;
      if (balancer) {
        const [listen, stats] = await Promise.all([freePort(), freePort()]);
        const servers = instances.slice(0, count).map(({ base }, i) => ({
          name: `web-${i + 1}`,
          port: Number(new URL(base).port),
        }));
        const configFile = join(folder, `haproxy-${setup}.cfg`);
        writeFileSync(configFile, haproxyConfig(listen, stats, servers));
        // -db: in the foreground, so the child is HAProxy itself (its pid is the one to measure).
        haproxy = start(haproxyBinary, ['-db', '-f', configFile]);
        const proxy = haproxy;
        let said = '';
        proxy.stdout?.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-2000)));
        proxy.stderr?.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-2000)));
        proxy.on('error', (error) => (said += String(error)));
        target = `http://127.0.0.1:${listen}`;
        await waitUntil(
          `HAProxy to hold ${servers.map((s) => s.name).join(' and ')} up`,
          async () => {
            if (proxy.exitCode !== null || proxy.pid === undefined)
              throw new Error(`haproxy exited (${proxy.exitCode}): ${said}`);
            // Refused while HAProxy is still starting: not up yet.
            const res = await request(`http://127.0.0.1:${stats}/stats;csv`).catch(() => undefined);
            const states = serverStates(res?.body ?? '');
            return servers.every((s) => states.get(s.name) === 'UP');
          },
          30_000,
        );
      }

      options.log(
        `  ${label}: warming up, then ${options.seconds} s at ${INSTANCES_CONNECTIONS} connections …`,
      );
      await autocannon(target + path, INSTANCES_CONNECTIONS, options.warmupSeconds, auth);

      // Both instances are measured in every row; "instances" sums those serving it. In the
      // one-instance rows the second idles: its CPU is in instanceEach and in "other".
      const each = instances.map(({ child }) => new CpuMeter(() => treeOf(child)));
      const proxyMeter = new CpuMeter(() => (haproxy ? treeOf(haproxy) : []));
      const postgres = new CpuMeter(backends);
      let generator: ChildProcess | undefined;
      const loadMeter = new CpuMeter(() => (generator ? treeOf(generator) : []));
      await Promise.all([
        ...each.map((m) => m.start()),
        proxyMeter.start(),
        postgres.start(),
        loadMeter.start(),
      ]);
      const everyoneBefore = allProcesses();
      const machineBefore = machineCpuMs();
      const benchBefore = process.cpuUsage();
      const wallBefore = performance.now();
      // The load generator's CPU is read while it runs: once it has exited /proc no longer has it.
      const sampler = setInterval(() => void loadMeter.sample(), 200);
      let load;
      try {
        load = await autocannon(target + path, INSTANCES_CONNECTIONS, options.seconds, auth, (child) => {
          generator = child;
        });
      } finally {
        clearInterval(sampler);
      }
      const eachCpu = await Promise.all(each.map((m) => m.end()));
      const instancesCpu = { ms: eachCpu.slice(0, count).reduce((sum, c) => sum + c.ms, 0) };
      const [haproxyCpu, postgresCpu, loadCpu] = await Promise.all([
        proxyMeter.end(),
        postgres.end(),
        loadMeter.end(),
      ]);
      const benchUsage = process.cpuUsage(benchBefore);
      const cpuSeconds = (performance.now() - wallBefore) / 1000;
      const machineAfter = machineCpuMs();
      const everyoneAfter = allProcesses();
      const machine = machineAfter.busy - machineBefore.busy;
      const postgresMs = postgresCpu.processes > 0 ? postgresCpu.ms : undefined;
      const parts = {
        instances: instancesCpu.ms,
        haproxy: haproxyCpu.ms,
        postgres: postgresMs,
        loadGenerator: loadCpu.ms,
        bench: (benchUsage.user + benchUsage.system) / 1000,
        interrupts: machineAfter.interrupts - machineBefore.interrupts,
        steal: machineAfter.steal - machineBefore.steal,
      };
      const accounted = Object.values(parts).reduce((a: number, b) => a + (b ?? 0), 0);
      const cpuMs: CpuSplit = { ...parts, other: Math.max(0, machine - accounted), machine };
      const ours = new Set([
        process.pid,
        ...each.flatMap((m) => m.measured),
        ...proxyMeter.measured,
        ...postgres.measured,
        ...loadMeter.measured,
      ]);
      rows.push({
        setup,
        label,
        instances: count,
        balancer,
        connections: INSTANCES_CONNECTIONS,
        requests: load.requests,
        seconds: load.seconds,
        cpuSeconds,
        rps: load.rps,
        p50: load.p50,
        p99: load.p99,
        errors: load.errors,
        cpuMs,
        cpuPerRequest: perRequest(cpuMs, load.requests),
        instanceEach: eachCpu.map((c) => c.ms),
        postgresBackends: postgresCpu.processes,
        busiestOthers: busiestOthers(everyoneBefore, everyoneAfter, ours),
      });

      if (haproxy) {
        await stop(haproxy);
        haproxy = undefined;
      }
    }
    return rows;
  } finally {
    if (haproxy) await stop(haproxy);
    await Promise.all(instances.map(({ child }) => stop(child)));
    await admin.end().catch(() => undefined);
    removeFolder();
    process.off('exit', removeFolder);
  }
}
