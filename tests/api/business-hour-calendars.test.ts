/**
 * Business-hour contracts are calendars (issue 35, item 1): a schedule of intervals per weekday or
 * "24/7", a time zone and holidays. A write that is not a calendar answers 422 naming the interval or
 * field, an update is checked merged with what it leaves as stored, and the demo's office hours come
 * with the Dutch holidays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

const OFFICE = {
  monday: [
    { from: '08:00', to: '12:00' },
    { from: '13:00', to: '17:30' },
  ],
  friday: [{ from: '08:00', to: '16:00' }],
};

describe.each(targets)('business-hour calendars on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;

  const send = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: b.admin, payload });

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
  });
  afterAll(() => t.close());

  it('stores a calendar with two intervals a day, a zone and holidays, and answers it as sent', async () => {
    const holidays = [
      { date: '12-25', name: 'Christmas' },
      { date: '2027-04-02', name: 'Good Friday' },
    ];
    const res = await send('POST', '/api/business-hour-contracts', {
      name: 'Office with lunch',
      schedule: OFFICE,
      timezone: 'Europe/Berlin',
      holidays,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const shown = await t.app.inject({ url: `/api/business-hour-contracts/${id}`, headers: b.admin });
    expect(shown.json()).toMatchObject({ schedule: OFFICE, timezone: 'Europe/Berlin', holidays });
  });

  it('takes "24/7" as a schedule, and a contract without holidays has an empty list', async () => {
    const res = await send('POST', '/api/business-hour-contracts', { name: 'Always', schedule: '24/7' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ schedule: '24/7', holidays: [] });
    // Checked again on an update, merged with the stored "24/7".
    const zone = await send('PUT', `/api/business-hour-contracts/${res.json().id}`, { timezone: 'UTC' });
    expect(zone.statusCode, zone.body).toBe(200);
    expect(zone.json()).toMatchObject({ schedule: '24/7', timezone: 'UTC' });
  });

  it('answers 422 naming the overlapping and the reversed interval, the unknown zone and the bad holiday', async () => {
    const res = await send('POST', '/api/business-hour-contracts', {
      name: 'Broken',
      schedule: {
        monday: [
          { from: '08:00', to: '12:00' },
          { from: '11:30', to: '13:00' },
        ],
        tuesday: [{ from: '17:00', to: '09:00' }],
      },
      timezone: 'Europe/Amsterdan',
      holidays: [{ date: '2026-02-30', name: 'No such day' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The interval 11:30 to 13:00 overlaps the interval 08:00 to 12:00.',
      errors: {
        'schedule.monday.1': ['The interval 11:30 to 13:00 overlaps the interval 08:00 to 12:00.'],
        'schedule.tuesday.0': ['The interval 17:00 to 09:00 ends before or when it starts.'],
        timezone: ['Unknown time zone Europe/Amsterdan: use an IANA name such as Europe/Amsterdam.'],
        'holidays.0.date': ['The holiday date 2026-02-30 is not a date YYYY-MM-DD, or MM-DD for every year.'],
      },
    });
    const stored = await t.db
      .selectFrom('business_hour_contracts')
      .select('id')
      .where('name', '=', 'Broken')
      .execute();
    expect(stored).toEqual([]);
  });

  it('checks an update merged with the stored fields it leaves alone', async () => {
    const made = await send('POST', '/api/business-hour-contracts', { name: 'Merged', schedule: OFFICE });
    const id = made.json().id;
    const zone = await send('PUT', `/api/business-hour-contracts/${id}`, { timezone: 'Mars/Olympus' });
    expect(zone.statusCode, zone.body).toBe(422);
    expect(zone.json().errors).toEqual({
      timezone: ['Unknown time zone Mars/Olympus: use an IANA name such as Europe/Amsterdam.'],
    });
    const name = await send('PUT', `/api/business-hour-contracts/${id}`, { name: 'Merged, renamed' });
    expect(name.statusCode, name.body).toBe(200);
    const noTime = await send('PUT', `/api/business-hour-contracts/${id}`, { schedule: { monday: [] } });
    expect(noTime.json().errors).toEqual({
      schedule: ['The schedule has no working time: give at least one interval, or "24/7".'],
    });
  });

  it('still takes a contract without a schedule, but not with bad holidays', async () => {
    const bare = await send('POST', '/api/business-hour-contracts', { name: 'Not yet planned' });
    expect(bare.statusCode, bare.body).toBe(201);
    const bad = await send('POST', '/api/business-hour-contracts', {
      name: 'Bad holidays',
      holidays: [{ date: '01-01' }],
    });
    expect(bad.json().errors).toEqual({ 'holidays.0.name': ['A holiday needs a name.'] });
  });

  it('gives the demo office hours the Dutch holidays', async () => {
    const res = await t.app.inject({
      url: '/api/business-hour-contracts?builder[0][where][0]=name&builder[0][where][1]=like&builder[0][where][2]=Kantoortijden',
      headers: b.admin,
    });
    const office = res.json().data[0];
    expect(office.timezone).toBe('Europe/Amsterdam');
    expect(office.holidays).toContainEqual({ date: '04-27', name: 'Koningsdag' });
    expect(office.holidays).toContainEqual({ date: '12-25', name: 'Eerste Kerstdag' });
  });
});
