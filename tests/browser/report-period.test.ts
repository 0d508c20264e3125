/**
 * The reports page's periods (src/custom/reports/period.ts): each preset's first and last day around a
 * day, weeks from Monday, quarters and years whole, across a year's turn; and durations as h:mm.
 */
import { describe, expect, it } from 'vitest';
import { minutesText, presetRange } from '../../src/custom/reports/period.ts';
import { metPercent } from '../../common/reports.ts';
import { readSettings } from '../../src/custom/reports/settings.ts';

describe('the reports page’s periods', () => {
  // Thursday 3 December 2026.
  const today = new Date(2026, 11, 3, 15, 30);

  it('names each preset’s first and last day', () => {
    expect(presetRange('this_week', today)).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(presetRange('last_week', today)).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(presetRange('this_month', today)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetRange('last_month', today)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetRange('this_quarter', today)).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(presetRange('last_quarter', today)).toEqual({ from: '2026-07-01', to: '2026-09-30' });
    expect(presetRange('this_year', today)).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(presetRange('last_year', today)).toEqual({ from: '2025-01-01', to: '2025-12-31' });
  });

  it('crosses into the year before, and a Sunday belongs to the week of the Monday before', () => {
    const sunday = new Date(2027, 0, 3);
    expect(presetRange('this_week', sunday)).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(presetRange('last_month', sunday)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetRange('last_quarter', sunday)).toEqual({ from: '2026-10-01', to: '2026-12-31' });
  });

  it('writes business minutes as h:mm and a share met in whole percents', () => {
    expect(minutesText(null)).toBe('–');
    expect(minutesText(5)).toBe('0:05');
    // A contract period used beyond its hours.
    expect(minutesText(-75)).toBe('-1:15');
    expect(minutesText(486)).toBe('8:06');
    expect(minutesText(37.5)).toBe('0:38');
    expect(metPercent(0, 0)).toBeNull();
    expect(metPercent(2, 1)).toBe(67);
  });
});

describe('the reports page’s address', () => {
  const today = new Date(2026, 11, 3, 15, 30);
  const read = (query: string) => readSettings(new URLSearchParams(query), today);

  it('reads every setting it holds', () => {
    expect(
      read(
        'tab=time&time_by=activity_id&satisfaction_by=company&period=custom&from=2026-01-05&to=2026-03-31&group=month&line=2&by=company_id&filter=' +
          encodeURIComponent(JSON.stringify({ company_id: [3, null], priority_id: [1] })),
      ),
    ).toEqual({
      preset: 'custom',
      custom: { from: '2026-01-05', to: '2026-03-31' },
      group: 'month',
      line: '2',
      filters: { company_id: [3, null], priority_id: [1] },
      by: 'company_id',
      tab: 'time',
      timeBy: 'activity_id',
      satisfactionBy: 'company',
    });
  });

  it('leaves out what is not the page’s own, and the defaults stand', () => {
    const defaults = {
      preset: 'this_month',
      custom: { from: '2026-12-01', to: '2026-12-31' },
      group: 'week',
      line: 'all',
      filters: {},
      by: 'operator_id',
      tab: 'tickets',
      timeBy: 'operator_id',
      satisfactionBy: 'operator',
    };
    expect(read('')).toEqual(defaults);
    expect(
      read(
        'tab=admin&time_by=ticket_id&satisfaction_by=client&period=forever&from=yesterday&to=2026-13&group=year&line=3&by=password&filter=%7Bnot%20json',
      ),
    ).toEqual(defaults);
    // Only the report's filter fields, from an object.
    expect(
      read(`filter=${encodeURIComponent(JSON.stringify({ password: 'x', company_id: [1] }))}`).filters,
    ).toEqual({
      company_id: [1],
    });
    expect(read(`filter=${encodeURIComponent('[1,2]')}`).filters).toEqual({});
  });
});
