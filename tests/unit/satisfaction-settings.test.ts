import { describe, expect, it } from 'vitest';
import { sentimentOf, surveyMode } from '../../server/resources/satisfaction-surveys/settings.ts';
import { ratingChoices, surveyMail } from '../../server/resources/satisfaction-surveys/mail-text.ts';

describe('satisfaction survey settings', () => {
  it('reads off, on and a list of ticket types', () => {
    for (const off of [null, '', ' ', 'off', 'Uit', 'nee', 'false', '0', 'aus'])
      expect(surveyMode(off), String(off)).toEqual({ kind: 'off' });
    for (const on of ['on', 'aan', 'ja', 'yes', 'all']) expect(surveyMode(on), on).toEqual({ kind: 'all' });
    expect(surveyMode('3')).toEqual({ kind: 'types', typeIds: [3] });
    expect(surveyMode(' 3, 7 ,12')).toEqual({ kind: 'types', typeIds: [3, 7, 12] });
  });

  it('calls 1 bad on both scales, 2 bad only out of 5', () => {
    expect([3, 2, 1].map((r) => sentimentOf(3, r))).toEqual(['good', 'neutral', 'bad']);
    expect([5, 4, 3, 2, 1].map((r) => sentimentOf(5, r))).toEqual(['good', 'good', 'neutral', 'bad', 'bad']);
  });

  it('writes one link per rating, escaped in the HTML part', () => {
    expect(ratingChoices(3, 'de').map((c) => c.label)).toEqual(['Gut', 'Neutral', 'Schlecht']);
    const mail = surveyMail({
      to: 'a@example.com',
      name: 'A',
      tenantName: 'Desk & Co',
      reference: 'T-1',
      about: '<b>printer</b>',
      scale: 5,
      language: 'en',
      link: 'https://desk.example/app/survey/abc',
      days: 30,
    });
    expect(mail.text).toContain('1 / 5: https://desk.example/app/survey/abc?rating=1');
    expect(mail.html).toContain('&lt;b&gt;printer&lt;/b&gt;');
    expect(mail.html).toContain('Desk &amp; Co');
    expect(mail.html).not.toContain('<b>printer');
  });
});
