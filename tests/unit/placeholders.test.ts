/**
 * A standard answer's placeholders (issue 18, item 6): known names are filled in as escaped text,
 * unknown ones and ones without a value stay as written.
 */
import { describe, expect, it } from 'vitest';
import { fillPlaceholders, placeholderValues } from '../../src/custom/thread/placeholders.ts';

const ticket = {
  id: 7,
  reference: 'T-2026-0007',
  description: 'Printer <kapot>',
  client: { id: 3, full_name: 'Jan & "Piet" <b>de Vries</b>' },
  company: { id: 2, name: 'Jansen BV' },
};

describe('standard answer placeholders', () => {
  it('fill the client, ticket, company and operator from the record and the writer', () => {
    const values = placeholderValues('ticket', ticket, 'Anna Admin');
    expect(values).toEqual({
      'client.name': 'Jan & "Piet" <b>de Vries</b>',
      'ticket.reference': 'T-2026-0007',
      'ticket.description': 'Printer <kapot>',
      'company.name': 'Jansen BV',
      'operator.name': 'Anna Admin',
    });
    expect(
      fillPlaceholders(
        '<p>Beste {{client.name}}, over {{ ticket.reference }} ({{company.name}})</p>',
        values,
      ),
    ).toBe(
      '<p>Beste Jan &amp; &quot;Piet&quot; &lt;b&gt;de Vries&lt;/b&gt;, over T-2026-0007 (Jansen BV)</p>',
    );
  });

  it('leave unknown placeholders and those without a value as written', () => {
    const values = placeholderValues('asset', { id: 1, name: 'Router', client: null }, undefined);
    expect(values).toEqual({});
    const html =
      '<p>{{client.name}} {{ticket.reference}} {{unknown.thing}} {{operator.name}} {{ broken }</p>';
    expect(fillPlaceholders(html, values)).toBe(html);
    expect(fillPlaceholders('{{toString}} {{constructor}}', { 'client.name': 'x' })).toBe(
      '{{toString}} {{constructor}}',
    );
  });
});
