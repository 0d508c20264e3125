/**
 * SPEC 7 POST {resource}/invoice and /deinvoice {ids}, for every resource whose schema has
 * `x-invoice-line` (time registrations, used products): the records go on, or come off, their company's
 * draft invoice (the one without external_id), as invoice lines made the way the schema says.
 *
 * One transaction each, under row locks: the records first (in id order), then the companies (in id
 * order), then the invoices. The company lock makes finding or creating the draft one step, so two
 * racing calls for the same company end on one draft invoice; the unique index on an invoice line's
 * source (migration 0005) keeps a record on at most one line whatever happens.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import { bySchema } from '../../db/schema-tables.ts';
import type { AuthContext } from '../../auth/context.ts';
import { notFound, ValidationError } from '../../http/errors.ts';
import { bodyIds, idListBody } from '../../http/ids.ts';
import type { Registry } from '../../schema/registry.ts';
import type { InvoiceLineMapping, Resource } from '../../../common/schema/types.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { actionRoute, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import type { Schema } from '../../docs/refs.ts';
import { serverText } from '../../../common/server-texts.ts';
import { webhookEvent } from '../webhooks/enqueue.ts';

/** The most records one call takes: a list screen selects a page of them at most. */
export const MAX_IDS = 100;
/** SPEC 3: invoice status 1, the status a new (draft) invoice starts in. */
export const DRAFT_STATUS = 1;
const DESCRIPTION_MAX = 2000;

interface SourceRow {
  id: number;
  invoice_id: number | null;
  company_id: number | null;
  description: string;
  quantity: number;
  price: number;
  product_id: number | null;
}

/**
 * The records, locked in id order, with what their invoice lines need read through the schema's paths.
 * Each must be visible to the caller (else 404, like a single record).
 */
async function lockSources(
  deps: Deps,
  trx: DbTransaction,
  auth: AuthContext,
  resource: Resource,
  mapping: InvoiceLineMapping,
  ids: number[],
): Promise<Map<number, SourceRow>> {
  const joins = new Map<string, RawBuilder<unknown>>();
  const path = (p: string): RawBuilder<unknown> => {
    const [first, second] = p.split('.') as [string, string | undefined];
    if (second === undefined) return sql.ref(`s.${resource.fields[first]!.column}`);
    const relation = resource.relations[first]!;
    if (relation.kind !== 'belongsTo') throw new Error(`x-invoice-line: ${first} is not belongsTo`);
    const related = deps.registry.require(relation.resource);
    const alias = `j_${first}`;
    if (!joins.has(alias)) {
      const tenant = related.tenant ? sql` and ${sql.ref(`${alias}.tenant_id`)} = s.tenant_id` : sql``;
      joins.set(
        alias,
        sql`left join ${sql.table(related.table)} as ${sql.table(alias)}
          on ${sql.ref(`${alias}.id`)} = ${sql.ref(`s.${resource.fields[relation.key]!.column}`)}${tenant}`,
      );
    }
    return sql.ref(`${alias}.${related.fields[second]!.column}`);
  };
  const coalesce = (paths: string[]) => sql`coalesce(${sql.join(paths.map(path))})`;
  const text = (paths: string[]) =>
    sql`concat_ws(' - ', ${sql.join(paths.map((p) => sql`nullif(trim(${path(p)}::text), '')`))})`;
  const quantity =
    typeof mapping.quantity === 'object'
      ? sql`round(coalesce(${path(mapping.quantity.minutes)}, 0)::numeric / 60, 2)`
      : sql`coalesce(${path(mapping.quantity)}, 0)`;
  const columns = [
    sql`s.id`,
    sql`${sql.ref(`s.${resource.fields.invoice_id!.column}`)} as invoice_id`,
    sql`${coalesce(mapping.company)} as company_id`,
    sql`${text(mapping.description)} as description`,
    sql`${quantity} as quantity`,
    sql`coalesce(${path(mapping.price)}, 0) as price`,
    sql`${mapping.product ? path(mapping.product) : sql`null`} as product_id`,
  ];
  const sorted = [...ids].sort((a, b) => a - b);
  const tenant = resource.tenant ? sql`and s.tenant_id = ${auth.tenantId}` : sql``;
  const { rows } = await sql<SourceRow>`
    select ${sql.join(columns)} from ${sql.table(resource.table)} as s ${sql.join([...joins.values()], sql` `)}
    where s.id in (${sql.join(sorted)}) ${tenant}
    order by s.id
    for update of s`.execute(trx);
  for (const id of ids) await findRecord(deps, auth, resource, id, undefined, trx);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  if (byId.size !== ids.length) throw notFound();
  return byId;
}

/** The company's draft invoice, created when it has none; the company row lock serialises this. */
async function draftInvoice(trx: DbTransaction, tenantId: number, companyId: number): Promise<number> {
  const draft = await trx
    .selectFrom('invoices')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('external_id', 'is', null)
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
  if (draft) return Number(draft.id);
  const created = await trx
    .insertInto('invoices')
    .values({ tenant_id: tenantId, company_id: companyId, date: sql`current_date`, status_id: DRAFT_STATUS })
    .returning('id')
    .executeTakeFirstOrThrow();
  await webhookEvent(trx, tenantId, 'invoice.created', { invoice_id: Number(created.id) });
  return Number(created.id);
}

/** The invoices' amounts from their lines (excluding and including VAT). */
export async function recomputeAmounts(trx: DbTransaction, tenantId: number, invoiceIds: number[]) {
  if (!invoiceIds.length) return;
  await sql`
    update invoices i set
      amount_excl = coalesce((select sum(l.total) from invoice_lines l where l.invoice_id = i.id), 0),
      amount_incl = coalesce((select sum(round(l.total * (1 + l.vat_percentage / 100), 2))
                              from invoice_lines l where l.invoice_id = i.id), 0),
      updated_at = now()
    where i.tenant_id = ${tenantId} and i.id in (${sql.join(invoiceIds)})`.execute(trx);
}

/** The values of a line's texts that name it: its record kind and id. */
const line = (resource: Resource, id: number) => ({ resource: resource.title.toLowerCase(), id });

/** Puts the records on their companies' draft invoices; answers the ids of those invoices. */
export async function invoiceRecords(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  ids: number[],
): Promise<number[]> {
  const mapping = resource.invoiceLine!;
  return deps.db.transaction().execute(async (trx) => {
    const rows = await lockSources(deps, trx, auth, resource, mapping, ids);
    const errors: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      const row = rows.get(id)!;
      if (row.invoice_id !== null)
        errors[`ids.${i}`] = [serverText('line_invoiced_already', line(resource, id))];
      else if (row.company_id === null)
        errors[`ids.${i}`] = [serverText('line_no_company', line(resource, id))];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);

    const companies = [...new Set([...rows.values()].map((r) => Number(r.company_id)))].sort((a, b) => a - b);
    const locked = await trx
      .selectFrom('companies')
      .select('id')
      .where('tenant_id', '=', auth.tenantId)
      .where('id', 'in', companies)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (locked.length !== companies.length) throw notFound();
    const drafts = new Map<number, number>();
    for (const company of companies) drafts.set(company, await draftInvoice(trx, auth.tenantId, company));

    const nextOrder = new Map<number, number>();
    for (const invoiceId of drafts.values()) {
      const { max } = await trx
        .selectFrom('invoice_lines')
        .select(sql<number | null>`max("order")`.as('max'))
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      nextOrder.set(invoiceId, Number(max ?? 0) + 1);
    }
    for (const id of ids) {
      const row = rows.get(id)!;
      const invoiceId = drafts.get(Number(row.company_id))!;
      const order = nextOrder.get(invoiceId)!;
      nextOrder.set(invoiceId, order + 1);
      const quantity = Number(row.quantity);
      const price = Number(row.price);
      const description = (row.description || `${resource.title} ${id}`).slice(0, DESCRIPTION_MAX);
      await trx
        .insertInto('invoice_lines')
        .values({
          tenant_id: auth.tenantId,
          invoice_id: invoiceId,
          product_id: row.product_id,
          description,
          quantity,
          price,
          total: Math.round(quantity * price * 100) / 100,
          order,
          source_type: resource.name,
          source_id: id,
        })
        .execute();
      await bySchema(trx)
        .updateTable(resource.table)
        .set({ [resource.fields.invoice_id!.column]: invoiceId, updated_at: sql`now()` })
        .where('id', '=', id)
        .$if(resource.tenant, (q) => q.where('tenant_id', '=', auth.tenantId))
        .execute();
    }
    const invoiceIds = [...new Set(drafts.values())];
    await recomputeAmounts(trx, auth.tenantId, invoiceIds);
    return invoiceIds;
  });
}

/** Takes the records off their draft invoices; a record on a sent invoice (external_id set) is a 422. */
export async function deinvoiceRecords(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  ids: number[],
): Promise<number[]> {
  const mapping = resource.invoiceLine!;
  return deps.db.transaction().execute(async (trx) => {
    const rows = await lockSources(deps, trx, auth, resource, mapping, ids);
    const invoiceIds = [...new Set([...rows.values()].flatMap((r) => (r.invoice_id ? [r.invoice_id] : [])))]
      .map(Number)
      .sort((a, b) => a - b);
    const invoices = invoiceIds.length
      ? await trx
          .selectFrom('invoices')
          .select(['id', 'external_id', 'code'])
          .where('tenant_id', '=', auth.tenantId)
          .where('id', 'in', invoiceIds)
          .orderBy('id')
          .forUpdate()
          .execute()
      : [];
    const sent = new Map(
      invoices.filter((i) => i.external_id !== null).map((i) => [Number(i.id), i.code ?? String(i.id)]),
    );
    const errors: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      const invoiceId = rows.get(id)!.invoice_id;
      if (invoiceId === null) errors[`ids.${i}`] = [serverText('line_not_invoiced', line(resource, id))];
      else if (sent.has(Number(invoiceId)))
        errors[`ids.${i}`] = [
          serverText('line_invoice_sent', { ...line(resource, id), invoice: sent.get(Number(invoiceId))! }),
        ];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
    await trx
      .deleteFrom('invoice_lines')
      .where('tenant_id', '=', auth.tenantId)
      .where('source_type', '=', resource.name)
      .where('source_id', 'in', ids)
      .execute();
    await bySchema(trx)
      .updateTable(resource.table)
      .set({ [resource.fields.invoice_id!.column]: null, updated_at: sql`now()` })
      .where('id', 'in', ids)
      .$if(resource.tenant, (q) => q.where('tenant_id', '=', auth.tenantId))
      .execute();
    await recomputeAmounts(trx, auth.tenantId, invoiceIds);
    return invoiceIds;
  });
}

/** The resources whose records can be invoiced. */
export const invoiceable = (registry: Registry): Resource[] =>
  [...registry.resources.values()].filter((r) => r.invoiceLine);

/** The body of a call on a selection of records, which its schema checks: 1 to `max` different ids. */
export const idsBody = (max: number): Schema =>
  idListBody({
    min: 1,
    max,
    tooFew: serverText('select_at_least_one'),
    tooMany: serverText('select_at_most', { count: max }),
  });

const INVOICED = {
  description: 'Done; the ids of the draft invoices that changed.',
  schema: {
    type: 'object',
    required: ['message', 'invoice_ids'],
    properties: { message: { type: 'string' }, invoice_ids: { type: 'array', items: { type: 'integer' } } },
    additionalProperties: false,
  },
};

const operationName = (resource: Resource, action: string) =>
  `${resource.name.replace(/-(.)/g, (_, c: string) => c.toUpperCase())}${action}`;

export const invoiceLineActions: ActionPlugin = async (app, { db, registry }) => {
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  for (const resource of invoiceable(registry)) {
    app.post(
      `/api/${resource.name}/invoice`,
      actionRoute({
        tag: resource.name,
        operationId: operationName(resource, 'Invoice'),
        summary: `Put ${resource.title.toLowerCase()}s on their company's draft invoice`,
        description:
          "Each record becomes a line of its company's draft invoice (the invoice without `external_id`, " +
          "created when there is none) as the schema's `x-invoice-line` describes. A record already on an " +
          'invoice or without a company is a 422 naming it (`ids.<n>`) and nothing changes; an id the caller ' +
          'cannot see is 404. One transaction; racing calls for one company make one draft. Permission ' +
          `\`tenant.${resource.name}.invoice\`. ${OPERATORS_ONLY}`,
        params: false,
        body: idsBody(MAX_IDS),
        answers: { 200: INVOICED },
      }),
      async (request) => {
        const auth = await authorize(request, resource, 'invoice');
        validInput(request);
        const invoices = await invoiceRecords(deps, auth, resource, bodyIds(request.body));
        return { message: 'Added to the draft invoice.', invoice_ids: invoices };
      },
    );
    app.post(
      `/api/${resource.name}/deinvoice`,
      actionRoute({
        tag: resource.name,
        operationId: operationName(resource, 'Deinvoice'),
        summary: `Take ${resource.title.toLowerCase()}s off their draft invoice`,
        description:
          'Their invoice lines go and the records are on no invoice again; the invoice amounts follow. A ' +
          'record on no invoice, or on a sent invoice (`external_id` set), is a 422 naming it and nothing ' +
          `changes. One transaction. Permission \`tenant.${resource.name}.deinvoice\`. ${OPERATORS_ONLY}`,
        params: false,
        body: idsBody(MAX_IDS),
        answers: { 200: INVOICED },
      }),
      async (request) => {
        const auth = await authorize(request, resource, 'deinvoice');
        validInput(request);
        const invoices = await deinvoiceRecords(deps, auth, resource, bodyIds(request.body));
        return { message: 'Removed from the draft invoice.', invoice_ids: invoices };
      },
    );
  }
};
