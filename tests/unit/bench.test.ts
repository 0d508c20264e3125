/**
 * The pure helpers of `npm run bench` (issue 7): its options, its percentiles, and (issue 15) the CPU
 * accounting and HAProxy configuration of the instances section.
 */
import { describe, expect, it } from 'vitest';
import { npmConfigArgs, parseArgs, runsSection, ticketCount } from '../../bench/args.ts';
import { busiestOthers, ticksOfMachineStat, ticksOfProcessStat } from '../../bench/cpu.ts';
import { haproxyConfig, serverStates } from '../../bench/haproxy.ts';
import { perRequest, type InstancesRow } from '../../bench/instances.ts';
import { instancesTable } from '../../bench/instances-table.ts';
import { median, percentile } from '../../bench/stats.ts';
import { companyCount } from '../../bench/dataset.ts';
import { statementKind, writesTable, type WriteResult } from '../../bench/writes.ts';
import { lighthouseCommand, LIGHTHOUSE_PACKAGE } from '../../bench/lighthouse.ts';

describe('bench options', () => {
  it('reads --tickets, --quick, --json and --skip, in both spellings', () => {
    expect(parseArgs(['--tickets', '250_000', '--quick', '--json', '--skip=portal,embedded'])).toEqual({
      tickets: 250_000,
      quick: true,
      json: true,
      skip: ['portal', 'embedded'],
    });
    expect(parseArgs(['--tickets=1,000,000']).tickets).toBe(1_000_000);
  });

  it('runs only the sections --only names, less those --skip names', () => {
    const only = parseArgs(['--only', 'instances']);
    expect(only.only).toEqual(['instances']);
    expect(runsSection(only, 'instances')).toBe(true);
    expect(runsSection(only, 'api')).toBe(false);
    const both = parseArgs(['--only=throughput,instances', '--skip', 'instances']);
    expect(runsSection(both, 'throughput')).toBe(true);
    expect(runsSection(both, 'instances')).toBe(false);
    expect(runsSection(parseArgs([]), 'instances')).toBe(true);
    expect(() => parseArgs(['--only', 'instance'])).toThrow(
      /--only takes .*instances, reports; not instance/,
    );
    expect(runsSection(parseArgs(['--only', 'reports']), 'reports')).toBe(true);
    expect(runsSection(parseArgs(['--only', 'reports']), 'api')).toBe(false);
    expect(npmConfigArgs({ npm_config_only: 'instances' })).toEqual(['--only', 'instances']);
  });

  it('refuses what it does not know', () => {
    expect(() => parseArgs(['--tickets', '-5'])).toThrow(/positive whole number/);
    expect(() => parseArgs(['--fast'])).toThrow(/Unknown option --fast/);
    expect(() => parseArgs(['--skip', 'data'])).toThrow(/--skip takes/);
  });

  it('takes `npm run bench --quick` (npm keeps the flag and hands it on as npm_config_quick)', () => {
    expect(npmConfigArgs({ npm_config_quick: 'true', npm_config_json: '' })).toEqual(['--quick']);
    expect(npmConfigArgs({ npm_config_tickets: '5000', npm_config_json: 'false' })).toEqual([
      '--tickets',
      '5000',
    ]);
  });

  it('sizes a run by its options and the database', () => {
    expect(ticketCount(parseArgs([]), 'postgres')).toBe(1_000_000);
    expect(ticketCount(parseArgs(['--quick']), 'postgres')).toBe(100_000);
    expect(ticketCount(parseArgs([]), 'pglite')).toBeLessThan(100_000);
    expect(ticketCount(parseArgs(['--tickets', '7']), 'pglite')).toBe(7);
    expect(companyCount(1_000_000)).toBe(2_000);
    expect(companyCount(1_000)).toBe(20);
  });
});

describe('bench percentiles', () => {
  it('takes the nearest rank of the sorted samples', () => {
    const samples = [5, 1, 4, 2, 3];
    expect(median(samples)).toBe(3);
    expect(percentile(samples, 99)).toBe(5);
    expect(percentile(samples, 0)).toBe(1);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        99,
      ),
    ).toBe(99);
    expect(median([])).toBeNaN();
  });
});

describe('bench CPU accounting', () => {
  it("reads a process's user + system ticks, whatever its name holds", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const stat = '4242 (node (a) b) S 1 4242 4242 0 -1 4194560 9000 0 12 0 731 118 0 0 20 0 11 0 500';
    expect(ticksOfProcessStat(stat)).toBe(731 + 118);
    expect(() => ticksOfProcessStat('4242 (x) S 1')).toThrow(/not a \/proc\/<pid>\/stat line/);
  });

  it("splits the machine's ticks into busy, interrupts and steal", () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const stat = 'cpu  1000 10 300 5000 40 5 25 7 0 0\ncpu0 500 5 150 2500 20 2 12 3 0 0\n';
    expect(ticksOfMachineStat(stat)).toEqual({
      busy: 1000 + 10 + 300 + 5 + 25 + 7,
      interrupts: 30,
      steal: 7,
    });
    expect(() => ticksOfMachineStat('intr 1 2 3')).toThrow(/no cpu line/);
  });

  it('names the busiest processes that are not ours, by name, new ones whole', () => {
    const before = new Map([
      [1, { name: 'node', ms: 100 }],
      [2, { name: 'node', ms: 50 }],
      [3, { name: 'postgres', ms: 10 }],
      [9, { name: 'server', ms: 1000 }],
    ]);
    const after = new Map([
      [1, { name: 'node', ms: 400 }],
      [2, { name: 'node', ms: 60 }],
      [3, { name: 'postgres', ms: 10 }],
      [4, { name: 'vitest', ms: 80 }],
      [9, { name: 'server', ms: 5000 }],
    ]);
    expect(busiestOthers(before, after, new Set([9]))).toEqual([
      { name: 'node', ms: 310 },
      { name: 'vitest', ms: 80 },
    ]);
    expect(busiestOthers(before, after, new Set([9]), 1)).toEqual([{ name: 'node', ms: 310 }]);
  });

  it('divides the CPU by the requests, and leaves an unmeasured database unmeasured', () => {
    const cpu = {
      instances: 2000,
      haproxy: 100,
      postgres: undefined,
      loadGenerator: 300,
      bench: 20,
      interrupts: 50,
      steal: 0,
      other: 30,
      machine: 2500,
    };
    const per = perRequest(cpu, 1000);
    expect(per).toEqual({
      ...cpu,
      instances: 2,
      haproxy: 0.1,
      loadGenerator: 0.3,
      bench: 0.02,
      interrupts: 0.05,
      other: 0.03,
      machine: 2.5,
    });
    expect(perRequest(cpu, 0).instances).toBeNaN();

    const row: InstancesRow = {
      setup: 'direct',
      label: '1 instance, direct',
      instances: 1,
      balancer: false,
      connections: 16,
      requests: 1000,
      seconds: 1,
      cpuSeconds: 1.25,
      rps: 1000,
      p50: 15,
      p99: 31,
      errors: 0,
      cpuMs: cpu,
      cpuPerRequest: per,
      instanceEach: [2000, 0],
      postgresBackends: 0,
      busiestOthers: [{ name: 'vitest', ms: 12 }],
    };
    const printed = instancesTable([row], 2);
    const line = printed.split('\n').find((l) => l.startsWith('1 instance, direct'))!;
    // req/s, p50, p99, errors, instances, HAProxy (none), PostgreSQL (unmeasured), autocannon, kernel,
    // rest (bench + steal + other), machine, cores busy.
    expect(line.split(/\s{2,}/).slice(1)).toEqual([
      '1000',
      '15.0',
      '31.0',
      '0',
      '2.00',
      '-',
      '-',
      '0.30',
      '0.05',
      '0.05',
      '2.50',
      '2.00',
    ]);
    expect(printed).toContain('1 instance, direct: vitest 12');
  });
});

describe('bench HAProxy', () => {
  it('balances round robin over the servers it is given, health-checked on /api/health/ready', () => {
    const config = haproxyConfig(8080, 8081, [
      { name: 'web-1', port: 3001 },
      { name: 'web-2', port: 3002 },
    ]);
    expect(config).toContain('  bind 127.0.0.1:8080\n');
    expect(config).toContain('  balance roundrobin\n');
    expect(config).toContain('  option httpchk GET /api/health/ready\n');
    expect(config).toContain('  server web-1 127.0.0.1:3001 check');
    expect(config).toContain('  server web-2 127.0.0.1:3002 check');
    expect(config).toContain('  bind 127.0.0.1:8081\n');
  });

  it("reads each server's state from the stats CSV, not the backend's own line", () => {
    const csv = [
      '# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,status',
      'desk,FRONTEND,,,0,1,256,3,0,0,0,0,0,,,,,OPEN',
      'instances,web-1,0,0,0,1,,2,0,0,,0,,0,0,0,0,UP',
      'instances,web-2,0,0,0,1,,1,0,0,,0,,0,0,0,0,DOWN',
      'instances,BACKEND,0,0,0,1,26,3,0,0,0,0,,0,0,0,0,UP',
    ].join('\n');
    expect(serverStates(csv)).toEqual(
      new Map([
        ['web-1', 'UP'],
        ['web-2', 'DOWN'],
      ]),
    );
  });
});

describe('bench writes and Lighthouse (issue 40)', () => {
  it('names a statement by its verb and table', () => {
    expect(statementKind('insert into "tickets" ("tenant_id") values ($1) returning *')).toBe(
      'insert tickets',
    );
    expect(statementKind('update "tickets" set "x" = $1 where "id" = $2')).toBe('update tickets');
    expect(statementKind('delete from "messages" where "id" = $1')).toBe('delete messages');
    expect(statementKind('select "t0"."id" from "tenant_configs" as "t0"')).toBe('select tenant_configs');
    expect(statementKind('with e as (select 1 from "users") select * from e')).toBe('with: select users');
    expect(statementKind('with "e" as (update "tickets" set x = 1 returning id) select * from "e"')).toBe(
      'with: update tickets',
    );
  });

  it('prints the statements of a write against the ticket create target, runs counted', () => {
    const result = (name: string, kinds: string[]): WriteResult => ({
      name,
      samples: 10,
      median: 12.3,
      p99: 45.6,
      statements: kinds.length,
      kinds,
      afterAnswer: 1,
    });
    const text = writesTable([
      result('create a ticket (operator)', [
        'select users',
        'insert tickets',
        'update tickets',
        'update tickets',
      ]),
      result('post a message (operator)', ['insert messages']),
    ]);
    expect(text).toMatch(/create a ticket \(operator\) +10 +12\.3 +45\.6 +4 +1 +stmts<=3 MISSED/);
    expect(text).toMatch(/post a message \(operator\) +10 +12\.3 +45\.6 +1 +1 +-/);
    expect(text).toContain('create a ticket (operator): select users, insert tickets, update tickets x2');
  });

  it('runs the Lighthouse command named by LIGHTHOUSE_BIN only when it exists', () => {
    expect(lighthouseCommand({ LIGHTHOUSE_BIN: '/nonexistent/lighthouse' })).toBeUndefined();
    expect(lighthouseCommand({ LIGHTHOUSE_BIN: process.execPath })).toBe(process.execPath);
    expect(LIGHTHOUSE_PACKAGE).toBe('lighthouse@12.2.3');
  });
});
