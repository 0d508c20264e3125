/**
 * A `node --cpu-prof` profile's self time by bucket (issue 40): where an API process's CPU goes, by the
 * file of each sampled frame (the pg driver, JSON serialisation, Fastify, our own code by folder,
 * Kysely, GC, socket writes, …). Idle samples are left out: percentages are of the busy time. A sample
 * stands for the time to the next one, wall time: on a busy machine a thread that waits for a core
 * gets longer samples, so compare shares, and take CPU per request from /proc (bench/profile.ts).
 * Usage: tsx bench/profile-summary.ts <file.cpuprofile> [--from s] [--to s] [--top n]
 * (--from/--to: only the samples in that window, seconds after the profile started; bench/profile.ts
 * passes the load run's window so that start-up and warm-up are not counted.)
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { table } from './stats.ts';

interface CallFrame {
  functionName: string;
  /** Empty for the VM's and Node's native functions and for code made by `new Function`. */
  url: string;
  /** "0" for native functions. */
  scriptId: string;
  lineNumber: number;
}
/** A native function: Node's C++ bindings (socket writes, buffer decoding) and V8's builtins. */
const native = (f: CallFrame) => f.url === '' && f.scriptId === '0' && !f.functionName.startsWith('(');
/** Code generated at run time (`new Function`): no file, but a script of its own. */
const generated = (f: CallFrame) => f.url === '' && f.scriptId !== '0';
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds since the previous sample (the first: since startTime). */
  timeDeltas: number[];
}

/** Buckets in the order they are tried: the first whose test matches a frame takes its self time. */
export const BUCKETS: { name: string; test: (frame: CallFrame) => boolean }[] = [
  { name: 'GC', test: (f) => f.functionName === '(garbage collector)' },
  { name: 'native, not attributed (program)', test: (f) => f.functionName === '(program)' },
  {
    name: 'pg driver (protocol, row parsing)',
    test: (f) =>
      /\/node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-(array|date|interval|bytea)|pg-int8|pg-numeric)\//.test(
        f.url,
      ),
  },
  {
    // fast-json-stringify's serialisers are generated with `new Function`: a script without a file,
    // its functions named anonymous0, anonymous1, … (ajv's generated validators are validate0, …).
    name: 'JSON serialisation',
    test: (f) =>
      f.url.includes('/node_modules/fast-json-stringify/') ||
      (generated(f) && /^anonymous\d*$/.test(f.functionName)),
  },
  { name: 'Kysely', test: (f) => f.url.includes('/node_modules/kysely/') },
  {
    name: 'Fastify (routing, hooks, reply)',
    test: (f) =>
      /\/node_modules\/(fastify|@fastify\/[^/]+|find-my-way|avvio|fast-querystring|toad-cache|light-my-request|fastify-plugin)\//.test(
        f.url,
      ),
  },
  { name: 'ours: server/query', test: (f) => f.url.includes('/server/query/') },
  { name: 'ours: server/resources', test: (f) => f.url.includes('/server/resources/') },
  { name: 'ours: server/auth', test: (f) => f.url.includes('/server/auth/') },
  { name: 'ours: server/http', test: (f) => f.url.includes('/server/http/') },
  {
    name: 'ours: the rest of server/, common/',
    test: (f) => /\/(server|common|schemas)\//.test(f.url) && !f.url.includes('/node_modules/'),
  },
  {
    name: 'socket writes, HTTP (node:net, node:_http_*, streams)',
    test: (f) =>
      /^node:(net|_http_|internal\/(stream_base_commons|streams|net|http))/.test(f.url) ||
      (native(f) && /^(writev|writeBuffer|writeUtf8String|writeLatin1String|shutdown)$/.test(f.functionName)),
  },
];
export const OTHER = 'other';

export interface Summary {
  /** Busy milliseconds (samples that were not idle) in the window. */
  busyMs: number;
  idleMs: number;
  /** The profile's length and the window summarised, in seconds from its start. */
  seconds: number;
  window: { from: number; to: number };
  buckets: { name: string; ms: number; share: number }[];
  /** The frames (function, file:line) with the most self time, and their bucket. */
  top: { frame: string; bucket: string; ms: number; share: number }[];
  /** Self time of "other" by package or node: module. */
  otherByOrigin: { origin: string; ms: number }[];
}

const origin = ({ url, functionName, scriptId }: CallFrame) => {
  if (url === '') return `${scriptId === '0' ? 'native' : 'generated'} ${functionName.replace(/\d+$/, '…')}`;
  const pkg = url.match(/\/node_modules\/((@[^/]+\/)?[^/]+)\//);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').split('/')[0]!;
  return url.replace(/^file:\/\/.*?\/(?=[^/]+\/[^/]+$)/, '');
};

export function summarise(profile: CpuProfile, window: { from?: number; to?: number } = {}, top = 15) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const bucketOf = new Map<number, string>();
  for (const node of profile.nodes) {
    bucketOf.set(node.id, BUCKETS.find((b) => b.test(node.callFrame))?.name ?? OTHER);
  }
  const from = (window.from ?? 0) * 1e6;
  const to = (window.to ?? Infinity) * 1e6;
  const byBucket = new Map<string, number>();
  const byNode = new Map<number, number>();
  let busy = 0;
  let idle = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    // A sample's time is the gap to the next one (the last one: to the profile's end).
    const next = profile.timeDeltas[i + 1] ?? profile.endTime - profile.startTime - at;
    if (at < from || at > to) return;
    const dt = Math.max(0, next) / 1000;
    if (nodes.get(id)!.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    busy += dt;
    byNode.set(id, (byNode.get(id) ?? 0) + dt);
    const bucket = bucketOf.get(id)!;
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + dt);
  });
  const byFrame = new Map<string, { bucket: string; ms: number }>();
  const otherByOrigin = new Map<string, number>();
  for (const [id, ms] of byNode) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^file:\/\/.*?\/(node_modules|server|common|bench)\//, '$1/')}:${lineNumber + 1}`;
    const entry = byFrame.get(key) ?? { bucket: bucketOf.get(id)!, ms: 0 };
    entry.ms += ms;
    byFrame.set(key, entry);
    const from = origin(nodes.get(id)!.callFrame);
    if (entry.bucket === OTHER) otherByOrigin.set(from, (otherByOrigin.get(from) ?? 0) + ms);
  }
  const share = (ms: number) => (busy ? ms / busy : 0);
  return {
    busyMs: busy,
    idleMs: idle,
    seconds: (profile.endTime - profile.startTime) / 1e6,
    window: { from: from / 1e6, to: Math.min(to / 1e6, (profile.endTime - profile.startTime) / 1e6) },
    buckets: [...BUCKETS.map((b) => b.name), OTHER].map((name) => ({
      name,
      ms: byBucket.get(name) ?? 0,
      share: share(byBucket.get(name) ?? 0),
    })),
    top: [...byFrame]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, top)
      .map(([frame, { bucket, ms }]) => ({ frame, bucket, ms, share: share(ms) })),
    otherByOrigin: [...otherByOrigin]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([o, ms]) => ({ origin: o, ms })),
  } satisfies Summary;
}

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The summary as text tables; `requests` (when known) adds CPU ms per request. */
export function summaryText(summary: Summary, requests?: number): string {
  const perRequest = (ms: number) => (requests ? (ms / requests).toFixed(3) : '-');
  return [
    `profile ${summary.seconds.toFixed(1)} s, window ${summary.window.from.toFixed(1)}-${summary.window.to.toFixed(1)} s: ` +
      `busy ${(summary.busyMs / 1000).toFixed(2)} s, idle ${(summary.idleMs / 1000).toFixed(2)} s` +
      (requests ? `, ${requests} requests: ${perRequest(summary.busyMs)} sampled ms per request` : ''),
    table(
      ['bucket (self time)', 'sampled ms', 'share', 'per request'],
      summary.buckets.map((b) => [b.name, b.ms.toFixed(0), pct(b.share), perRequest(b.ms)]),
    ),
    '',
    table(
      ['frame (self time)', 'bucket', 'share'],
      summary.top.map((t) => [t.frame, t.bucket, pct(t.share)]),
    ),
    '',
    `"other" by origin: ${summary.otherByOrigin.map((o) => `${o.origin} ${pct(o.ms / summary.busyMs)}`).join(', ')}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [--from s] [--to s] [--top n]');
    process.exit(2);
  }
  const option = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? Number(rest[i + 1]) : undefined;
  };
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  console.log(
    summaryText(summarise(profile, { from: option('--from'), to: option('--to') }, option('--top'))),
  );
}
