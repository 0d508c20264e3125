/** The pure helpers of `npm run bench` (issue 7): its options and its percentiles. */
import { describe, expect, it } from 'vitest';
import { npmConfigArgs, parseArgs, ticketCount } from '../../bench/args.ts';
import { median, percentile } from '../../bench/stats.ts';
import { companyCount } from '../../bench/dataset.ts';

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
