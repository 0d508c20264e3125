import fields from '../data/custom-fields.json' with { type: 'json' };
import { at, byName, json, type Row, type SeedContext } from './context.ts';
import type { SeededTickets } from './tickets.ts';
import type { DemoCompany } from './tickets.ts';

/* Custom fields on tickets, assets, companies, users and quotes, and values for some of each. */

export async function seedCustomFields(
  ctx: SeedContext,
  companies: DemoCompany[],
  tickets: SeededTickets,
): Promise<void> {
  const fieldIds = byName(
    fields.map((f) => f.name),
    await ctx.list(
      'custom_fields',
      fields.map(({ options, ...f }, i) => ({
        options: json((options ?? []).map(([name, label]) => ({ name, label }))),
        ...f,
        order: i + 1,
      })),
    ),
  );
  const value = (field: string, morphable_type: string, morphable_id: number, v: string) => ({
    custom_field_id: fieldIds.get(field),
    morphable_type,
    morphable_id,
    value: v,
  });
  const valueRows: Row[] = [];
  tickets.ids.forEach((ticketId, i) => {
    if (i % 2 === 0)
      valueRows.push(value('impact', 'ticket', ticketId, at(['single', 'department', 'organisation'], i)));
    if (i % 5 === 0) valueRows.push(value('kostenplaats', 'ticket', ticketId, `KP-${100 + (i % 4)}`));
  });
  for (const [ci, company] of companies.entries()) {
    valueRows.push(value('klantnummer', 'company', company.id, `K${10_231 + ci * 17}`));
    valueRows.push(value('afdeling', 'user', company.clients[0]!.id, 'Directie'));
    company.assetIds.forEach((assetId, i) => {
      if (i < 3) valueRows.push(value('ip_adres', 'asset', assetId, `192.168.${10 + ci}.${20 + i}`));
    });
    valueRows.push(value('installatiedatum', 'asset', company.assetIds[0]!, ctx.dateIn(-200)));
    valueRows.push(
      value('projectnummer', 'quote', company.acceptedQuoteId, `P-${ctx.today.getUTCFullYear()}-0${ci + 1}`),
    );
    valueRows.push(value('levering', 'quote', company.acceptedQuoteId, 'install'));
  }
  await ctx.list('custom_values', valueRows);
}
