/** The printed table of the instances section: per row, throughput, latency and CPU ms per request. */
import type { InstancesRow } from './instances.ts';
import { ms, table } from './stats.ts';

const per = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? '-' : value.toFixed(2);

export function instancesTable(rows: InstancesRow[], cpus: number): string {
  const lines = table(
    [
      'setup',
      'req/s',
      'p50',
      'p99',
      'errors',
      'instances',
      'HAProxy',
      'PostgreSQL',
      'autocannon',
      'kernel',
      'rest',
      'machine',
      'cores busy',
    ],
    rows.map((r) => {
      const c = r.cpuPerRequest;
      return [
        r.label,
        r.rps.toFixed(0),
        ms(r.p50),
        ms(r.p99),
        r.errors,
        per(c.instances),
        r.balancer ? per(c.haproxy) : '-',
        per(c.postgres),
        per(c.loadGenerator),
        per(c.interrupts),
        per(c.bench + c.steal + c.other),
        per(c.machine),
        (r.cpuMs.machine / 1000 / r.cpuSeconds).toFixed(2),
      ];
    }),
  );
  const seconds = rows[0]?.seconds ?? 0;
  return [
    lines,
    `(CPU ms per request: user + system time from /proc during each ${seconds} s run; ${cpus} cores give ${cpus * 1000} ms`,
    ` per second. "PostgreSQL": the backends of this database (on another host: -); "kernel": interrupts and`,
    ` softirqs (loopback network); "rest": this process, the hypervisor's steal and everything else on the`,
    ` machine; "cores busy": the machine's busy time over the run's wall time. Busiest other processes, CPU ms:`,
    ...rows.map(
      (r) => `   ${r.label}: ${r.busiestOthers.map((o) => `${o.name} ${o.ms.toFixed(0)}`).join(', ') || '-'}`,
    ),
    ')',
  ].join('\n');
}
