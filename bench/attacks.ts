/**
 * `npx tsx bench/attacks.ts` (issue 31): what one attacker's calls do to everyone else. For each attack
 * a fresh server process on a benchmark database; two victims (a signed-in operator's ticket list page,
 * the portal client's own ticket list) make their ordinary calls first alone (the baseline: median and
 * p95), then while the attack runs; printed as the ratio to each victim's own baseline. On PGlite, and
 * on PostgreSQL as well when BENCH_DATABASE_URL (or DATABASE_URL, TEST_DATABASE_URL) names a server: the
 * benchmark uses a database of its own next to it (`<name>_attacks`). Figures, not a test.
 *
 * Options: --engine pglite|postgres (only that one), --only <attack,…> (nested-with, login-flood,
 * event-replay, hostile-mail), --calls N (per victim and window, 20), --seconds S (longest window, 30),
 * --tickets N (20,000), --login-rate R (wrong logins per second, 3), --json (only the JSON line).
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { ATTACK_KEYS, attacks, type AttackContext, type AttackKey } from './attack-kinds.ts';
import { prepareTarget, startServer, targetFor, type Engine } from './attack-server.ts';
import { closeAgent, login } from './http.ts';
import { stopAll } from './processes.ts';
import { ticketListPath } from './app-requests.ts';
import { ms, round, table } from './stats.ts';
import { measureVictims, type Victim, type VictimFigures, type Window } from './victims.ts';

interface Options {
  engines: Engine[];
  only: AttackKey[];
  window: Window;
  tickets: number;
  loginRate: number;
  json: boolean;
}

const URL_ = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;

function parse(argv: string[]): Options {
  const out: Options = {
    engines: URL_ ? ['pglite', 'postgres'] : ['pglite'],
    only: ATTACK_KEYS,
    window: { calls: 20, seconds: 30, pauseMs: 200 },
    tickets: 20_000,
    loginRate: 3,
    json: false,
  };
  const number = (name: string, v: string | undefined) => {
    if (!v || !/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) throw new Error(`${name} takes a positive number`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!;
    const value = () => argv[++i];
    switch (name) {
      case '--engine': {
        const e = value();
        if (e !== 'pglite' && e !== 'postgres') throw new Error('--engine takes pglite or postgres');
        if (e === 'postgres' && !URL_) throw new Error('--engine postgres needs BENCH_DATABASE_URL');
        out.engines = [e];
        break;
      }
      case '--only': {
        const keys = (value() ?? '').split(',');
        for (const k of keys)
          if (!ATTACK_KEYS.includes(k as AttackKey))
            throw new Error(`--only takes ${ATTACK_KEYS.join(', ')}`);
        out.only = keys as AttackKey[];
        break;
      }
      case '--calls':
        out.window.calls = number(name, value());
        break;
      case '--seconds':
        out.window.seconds = number(name, value());
        break;
      case '--tickets':
        out.tickets = number(name, value());
        break;
      case '--login-rate':
        out.loginRate = number(name, value());
        break;
      case '--json':
        out.json = true;
        break;
      default:
        throw new Error(`Unknown option ${name}. Options: see the comment at the top of bench/attacks.ts`);
    }
  }
  return out;
}

const options = parse(process.argv.slice(2));
const print = (line: string) => (options.json ? undefined : console.log(line));
const log = (line: string) => console.error(line);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const commit = (() => {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    });
    return dirty.trim() ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
})();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the benchmark's processes …`);
    void stopAll().finally(() => process.exit(130));
  });
}

/** One row of the result: an attack, an engine, a victim. */
interface Row {
  attack: AttackKey;
  engine: Engine;
  victim: string;
  alone?: VictimFigures;
  attacked?: VictimFigures;
  attacker: string;
}

/** Both victims read the tickets list as their app does: the back office's first page, the portal's. */
const VICTIM_PATHS = {
  operator: ticketListPath({ app: 'backoffice' }),
  client: ticketListPath({ app: 'portal' }),
};
/** Before the baseline: the fresh server's first calls (JIT, caches) are not a user's everyday call. */
const WARM_UP: Window = { calls: 10, seconds: 20, pauseMs: 0 };
/** After starting an attack, before measuring: it is under way. */
const ATTACK_LEAD_MS = 1_500;

const rows: Row[] = [];
const started = performance.now();
print(`npx tsx bench/attacks.ts ${process.argv.slice(2).join(' ')}`.trim());
print(
  `${new Date().toISOString()}  commit ${commit}, ${cpus().length} CPUs, Node ${process.version}, load ${load()}`,
);

try {
  for (const engine of options.engines) {
    const target = targetFor(engine, options.tickets, URL_);
    log(`${engine}: preparing ${options.tickets.toLocaleString('en')} tickets …`);
    const data = await prepareTarget(target, log);
    for (const attack of attacks().filter((a) => options.only.includes(a.key))) {
      const skip = attack.unavailable?.();
      if (skip) {
        rows.push({ attack: attack.key, engine, victim: '-', attacker: skip });
        print(`${attack.title} on ${engine}: ${skip}`);
        continue;
      }
      log(`${engine}: ${attack.title} …`);
      const server = await startServer(target, attack.serverEnv);
      try {
        const operator = { authorization: `Bearer ${await login(server.base, 'admin@example.com')}` };
        const client = { authorization: `Bearer ${await login(server.base, 'client@example.com')}` };
        const victims: Victim[] = [
          { name: 'operator: ticket list', path: VICTIM_PATHS.operator, headers: operator },
          { name: 'client: own tickets', path: VICTIM_PATHS.client, headers: client },
        ];
        const ctx: AttackContext = {
          base: server.base,
          data,
          tickets: options.tickets,
          operator,
          client,
          loginRate: options.loginRate,
        };
        await attack.prepare?.(ctx);
        await measureVictims(server.base, victims, WARM_UP);
        const alone = await measureVictims(server.base, victims, options.window);
        const running = await attack.start(ctx);
        await new Promise((r) => setTimeout(r, ATTACK_LEAD_MS));
        const attacked = await measureVictims(server.base, victims, options.window);
        const attacker = await running.stop();
        for (const v of victims)
          rows.push({
            attack: attack.key,
            engine,
            victim: v.name,
            alone: alone[v.name],
            attacked: attacked[v.name],
            attacker,
          });
      } finally {
        await server.stop();
        await attack.cleanUp?.(target);
      }
    }
  }
} finally {
  closeAgent();
  await stopAll();
}

const cell = (f: VictimFigures | undefined, key: 'median' | 'p95') =>
  f ? `${f.cutOff && key === 'p95' ? '≥' : ''}${ms(f[key])}` : '-';
const ratio = (r: Row, key: 'median' | 'p95') =>
  r.alone && r.attacked
    ? `${r.attacked.cutOff ? '≥' : ''}${(r.attacked[key] / r.alone[key]).toFixed(1)}×`
    : '-';
print(`\n## Victims alone and under attack (ms; load ${load()})`);
print(
  table(
    [
      'attack',
      'engine',
      'victim',
      'n',
      'alone p50',
      'alone p95',
      'attacked p50',
      'attacked p95',
      'ratio p50',
      'ratio p95',
    ],
    rows
      .filter((r) => r.alone)
      .map((r) => [
        r.attack,
        r.engine,
        r.victim,
        `${r.alone!.samples.length}/${r.attacked!.samples.length}`,
        cell(r.alone, 'median'),
        cell(r.alone, 'p95'),
        cell(r.attacked, 'median'),
        cell(r.attacked, 'p95'),
        ratio(r, 'median'),
        ratio(r, 'p95'),
      ]),
  ),
);
print('\nWhat the attacker got:');
for (const r of rows.filter(
  (r, i) => rows.findIndex((o) => o.attack === r.attack && o.engine === r.engine) === i,
))
  print(`  ${r.attack} on ${r.engine}: ${r.attacker}`);
print(
  '\n"n": calls measured alone/under attack; "≥": a call was still waiting at the window\'s end and counts with its time so far.',
);
const failures = rows.filter((r) => (r.alone?.failed ?? 0) + (r.attacked?.failed ?? 0) > 0);
for (const r of failures)
  print(
    `  ${r.attack} on ${r.engine}, ${r.victim}: ${r.alone!.failed} + ${r.attacked!.failed} calls answered other than 200`,
  );

const figures = (f: VictimFigures | undefined) =>
  f && {
    n: f.samples.length,
    median: round(f.median, 1),
    p95: round(f.p95, 1),
    cutOff: f.cutOff,
    failed: f.failed,
  };
console.log(
  JSON.stringify({
    date: new Date().toISOString(),
    commit,
    options: { ...options, window: options.window },
    seconds: round((performance.now() - started) / 1000, 1),
    rows: rows.map((r) => ({ ...r, alone: figures(r.alone), attacked: figures(r.attacked) })),
  }),
);
