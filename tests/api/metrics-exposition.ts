/**
 * Shared by the metrics tests (metrics-scrape, metrics-limits-queues): the scrape token, and a strict
 * reader of the Prometheus text exposition GET /api/metrics answers.
 */
import { expect } from 'vitest';
import type { TestApp } from './harness.ts';

export const TOKEN = 'metrics-test-token-0123456789abcdef';
export const INSTANCE = 'metrics-test-1';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

/**
 * Prometheus' text format (version 0.0.4), read strictly: every line a HELP, a TYPE, a sample or empty; every
 * sample of a family whose TYPE came first; histogram samples only as _bucket (with `le`), _sum, _count.
 */
export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  expect(lines.at(-1), 'the text ends with a line feed').toBe('');
  for (const line of lines.slice(0, -1)) {
    // The format ignores empty lines (prom-client puts one between families).
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      expect(meta[2]).toMatch(new RegExp(`^${NAME}$`));
      if (meta[1] === 'TYPE') {
        expect(TYPES.has(meta[3]!), `type of ${meta[2]}: ${meta[3]}`).toBe(true);
        expect(types.has(meta[2]!), `one TYPE line for ${meta[2]}`).toBe(false);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    expect(match, `a sample line: ${line}`).not.toBeNull();
    const [, name, labelText = '', valueText] = match!;
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const label = LABEL.exec(labelText);
      expect(label, `labels of ${line}`).not.toBeNull();
      labels[label![1]!] = label![2]!;
    }
    // Prometheus reads values with Go's ParseFloat: NaN and ±Inf in any case (prom-client writes Nan).
    const value = /^nan$/i.test(valueText!) ? NaN : Number(valueText!.replace(/^([+-]?)inf$/i, '$1Infinity'));
    expect(Number.isNaN(value) && !/^nan$/i.test(valueText!), `value of ${line}`).toBe(false);
    const family = familyOf(name!, types);
    expect(family, `a TYPE line before ${name}`).toBeDefined();
    if (types.get(family!) === 'histogram') {
      expect(
        ['_bucket', '_sum', '_count'].some((s) => name === family + s),
        name,
      ).toBe(true);
      if (name!.endsWith('_bucket')) expect(labels.le, `le of ${line}`).toBeDefined();
    }
    samples.push({ name: name!, labels, value });
  }
  return { samples, types };
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return types.get(base) === 'histogram' || types.get(base) === 'summary' ? base : undefined;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
export function valueOf(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  expect(found.length, `at most one ${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

/** A scrape of `t` with the token: the answer and what it reads as. */
export async function scrapeMetrics(t: TestApp) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { res, ...parseExposition(res.body) };
}
