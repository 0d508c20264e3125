/** bench/profile-summary.ts (issue 40): a CPU profile's self time by bucket, by the file of each frame. */
import { describe, expect, it } from 'vitest';
import { summarise, type CpuProfile } from '../../bench/profile-summary.ts';

const frame = (id: number, functionName: string, url = '', scriptId = '1') => ({
  id,
  callFrame: { functionName, url, scriptId, lineNumber: 0 },
});

/** One sample per node below, 1 ms each, in this order. */
const profile: CpuProfile = {
  nodes: [
    frame(1, '(idle)', '', '0'),
    frame(2, '(garbage collector)', '', '0'),
    frame(3, 'parseRow', 'file:///app/node_modules/pg/lib/result.js'),
    frame(4, 'listStatements', 'file:///app/server/query/select.ts'),
    // fast-json-stringify's generated serialiser and ajv's generated validator: no file, a script.
    frame(5, 'anonymous2', '', '7'),
    frame(6, 'validate0', '', '8'),
    frame(7, 'writev', '', '0'),
    frame(8, 'readableFieldsFor', 'file:///app/common/schema/fields.ts'),
    frame(9, 'visitNode', 'file:///app/node_modules/kysely/dist/esm/visitor.js'),
  ],
  startTime: 0,
  endTime: 11_000,
  samples: [1, 2, 3, 3, 4, 5, 6, 7, 8, 9],
  timeDeltas: Array.from({ length: 10 }, () => 1000),
};
const bucketMs = (summary: ReturnType<typeof summarise>, name: string) =>
  summary.buckets.find((b) => b.name === name)!.ms;

describe('profile summary', () => {
  it('puts each sampled frame in its bucket by file, leaving idle out', () => {
    const summary = summarise(profile);
    expect(summary.idleMs).toBe(1);
    expect(summary.busyMs).toBe(9);
    expect(bucketMs(summary, 'GC')).toBe(1);
    expect(bucketMs(summary, 'pg driver (protocol, row parsing)')).toBe(2);
    expect(bucketMs(summary, 'ours: server/query')).toBe(1);
    expect(bucketMs(summary, 'JSON serialisation')).toBe(1);
    expect(bucketMs(summary, 'socket writes, HTTP (node:net, node:_http_*, streams)')).toBe(1);
    expect(bucketMs(summary, 'ours: the rest of server/, common/')).toBe(1);
    expect(bucketMs(summary, 'Kysely')).toBe(1);
    expect(bucketMs(summary, 'other')).toBe(1);
    expect(summary.otherByOrigin).toEqual([{ origin: 'generated validate…', ms: 1 }]);
    expect(summary.top[0]).toMatchObject({
      bucket: 'pg driver (protocol, row parsing)',
      ms: 2,
      share: 2 / 9,
    });
  });

  it('counts only the samples inside the window', () => {
    // Samples fall at 1, 2, … 10 ms: 3.5 to 6.5 ms holds the pg driver's second, ours and the serialiser.
    const summary = summarise(profile, { from: 0.0035, to: 0.0065 });
    expect(summary.busyMs).toBe(3);
    expect(bucketMs(summary, 'pg driver (protocol, row parsing)')).toBe(1);
    expect(bucketMs(summary, 'ours: server/query')).toBe(1);
    expect(bucketMs(summary, 'JSON serialisation')).toBe(1);
    expect(bucketMs(summary, 'GC')).toBe(0);
  });
});
