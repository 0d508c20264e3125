/**
 * The run log's event names (automation-runs.event, enum automationRunEvents) are the triggers' events
 * and `time`, the time rules' loop: an event added to the engine but not to the log's list would show
 * as its code in a rule's Last runs tab, and be refused by the log's filter.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUTOMATION_EVENTS } from '../../server/automation/events.ts';

const enums = JSON.parse(
  readFileSync(new URL('../../schemas/_enums.json', import.meta.url), 'utf8'),
) as Record<string, { values: { id: string }[]; 'x-i18n': Record<string, Record<string, string>> }>;

describe('the run log’s events', () => {
  it('are the engine’s events and time, each named in nl, en and de', () => {
    const runs = enums.automationRunEvents!;
    const ids = runs.values.map((v) => v.id);
    expect(ids).toEqual([...AUTOMATION_EVENTS, 'time']);
    for (const lang of ['nl', 'en', 'de'])
      expect(Object.keys(runs['x-i18n'][lang]!).sort()).toEqual([...ids].sort());
  });
});
