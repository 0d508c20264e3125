import sales from '../data/sales.json' with { type: 'json' };
import { at, isoDate, round2, type Row, type SeedContext } from './context.ts';
import type { Client, CompanyPlan, Person } from './people.ts';
import type { Lists } from './settings.ts';

/*
 * A company's sales: a contract with hours per period and a prepaid card, deals, quotes in every status,
 * projects, subscriptions with lines and invoices in every status; after the tickets, the products used
 * on projects and tickets.
 */

const PERIOD_MONTHS: Record<string, number> = sales.periodMonths;

export interface Period {
  id: number;
  start: string;
  end: string | null;
  total: number;
  contractId: number;
}

export interface CompanySales {
  periods: Period[];
  prepaidPeriod: Omit<Period, 'end'>;
  paidInvoiceId: number;
  draftInvoiceId: number;
  projectIds: number[];
  acceptedQuoteId: number;
}

/**
 * The rows of records' product lines (a quote's, a subscription's): for the record `ownerIds[i]`, each
 * product of `lineSets[i]` with its own name and price, 21 % VAT, in the order given.
 */
function productLines(
  lists: Lists,
  ownerColumn: string,
  ownerIds: number[],
  lineSets: [code: string, quantity: number][][],
): Row[] {
  return lineSets.flatMap((lines, i) =>
    lines.map(([code, quantity], order) => {
      const p = lists.product(code);
      return {
        [ownerColumn]: ownerIds[i],
        product_id: p.id,
        description: p.product_name,
        quantity,
        price: p.price,
        vat_percentage: 21,
        total: round2(p.price * quantity),
        order: order + 1,
      };
    }),
  );
}

/** Counts across companies, so invoice numbers never repeat. */
export const invoiceNumbering = () => ({ invoice: 0 });

interface SubscriptionPlan {
  description: string;
  period: string;
  /** Product code and quantity; "workplaces" is the company's number of workplaces. */
  lines: [code: string, quantity: number | 'workplaces'][];
}

interface InvoicePlan {
  status: number;
  daysAgo: number;
  dueIn: number;
  draft?: boolean;
  credit?: boolean;
}

export async function seedSales(
  ctx: SeedContext,
  lists: Lists,
  numbering: { invoice: number },
  company: { id: number; plan: CompanyPlan; clients: Client[] },
  people: { adminId: number; operators: Person[] },
): Promise<CompanySales> {
  const { db, today, daysAgo, dateIn, monthStart } = ctx;
  const { plan, clients } = company;
  const { product } = lists;
  const C = { company_id: company.id };
  const managedWorkplace = lists.serviceIds.get('Managed werkplek');

  // A contract with hours per period, and a prepaid card (period 'none').
  const months = PERIOD_MONTHS[plan.contract.period]!;
  const firstStart = monthStart(-months * (plan.contract.periods - 1));
  const [contractId, prepaidId] = await ctx.list('contracts', [
    {
      name: plan.contract.name,
      description: `${plan.contract.hours} uur ondersteuning per ${sales.contractDescription[plan.contract.period]}.`,
      client_id: clients[0]!.id,
      service_id: managedWorkplace,
      period: plan.contract.period,
      quantity: plan.contract.hours,
      start_date: isoDate(firstStart),
      end_date: isoDate(new Date(Date.UTC(firstStart.getUTCFullYear() + 2, firstStart.getUTCMonth(), 0))),
    },
    {
      name: plan.prepaid.name,
      description: sales.prepaidDescription,
      client_id: clients[0]!.id,
      service_id: managedWorkplace,
      period: 'none',
      quantity: plan.prepaid.hours,
      start_date: dateIn(-150),
      end_date: null,
    },
  ]);
  await db
    .insertInto('company_contract')
    .values([contractId!, prepaidId!].map((id) => ({ company_id: company.id, contract_id: id })))
    .execute();
  const periodRows = Array.from({ length: plan.contract.periods }, (_, k) => {
    const start = monthStart(-months * (plan.contract.periods - 1 - k));
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 0));
    return {
      start: isoDate(start),
      end: isoDate(end),
      total: plan.contract.hours * 60,
      contractId: contractId!,
    };
  });
  const periodIds = await ctx.list('contract_periods', [
    ...periodRows.map((p) => ({
      contract_id: contractId,
      period_start: p.start,
      period_end: p.end,
      minutes_total: p.total,
      minutes_remaining: p.total,
    })),
    {
      contract_id: prepaidId,
      period_start: dateIn(-150),
      period_end: null,
      minutes_total: plan.prepaid.hours * 60,
      minutes_remaining: plan.prepaid.hours * 60,
    },
  ]);
  const periods = periodRows.map((p, k) => ({ ...p, id: periodIds[k]! }));
  const prepaidPeriod = {
    id: periodIds[periodRows.length]!,
    start: dateIn(-150),
    total: plan.prepaid.hours * 60,
    contractId: prepaidId!,
  };

  // Deals, quotes in every status, projects.
  const dealIds = await ctx.list(
    'deals',
    plan.deals.map((description, i) => ({
      ...C,
      description,
      client_id: clients[0]!.id,
      operator_id: people.adminId,
      amount: 5000 + i * 3500,
      expected_close_date: dateIn(30 + i * 30),
      created_at: daysAgo(120 - i * 10),
      updated_at: daysAgo(10 - i),
    })),
  );
  // A quote is valid for 30 days (common/quote-validity.ts): an accepted or rejected one from its sending,
  // so it was decided on within them; a concept or sent one from today, so none of the demo's open quotes
  // has expired yet and each can be sent and accepted as it is.
  const VALID_DAYS = 30;
  const quoteRows = plan.quotes.map((q, i) => {
    const lines = q.products.map(([code, quantity]) => round2(product(code).price * quantity));
    const created = daysAgo(90 - i * 12);
    const sentDaysAgo = 85 - i * 12;
    const sent = q.status >= 2 ? daysAgo(sentDaysAgo, 14) : null;
    const decided = q.status === 3 || q.status === 4;
    return {
      ...C,
      name: q.name,
      description: `Op basis van ons gesprek met ${clients[0]!.name}.`,
      status_id: q.status,
      deal_id: at(dealIds, i),
      client_id: clients[0]!.id,
      operator_id: people.adminId,
      total: round2(lines.reduce((a, b) => a + b, 0)),
      valid_until: dateIn(decided ? VALID_DAYS - sentDaysAgo : VALID_DAYS),
      sent_at: sent,
      signed_name: q.status === 3 ? clients[0]!.name : null,
      signed_note: q.status === 3 ? sales.acceptedQuoteNote : null,
      accepted_at: q.status === 3 ? daysAgo(80 - i * 12, 11) : null,
      declined_at: q.status === 4 ? daysAgo(80 - i * 12, 16) : null,
      created_at: created,
      updated_at: q.status === 1 ? daysAgo(3) : daysAgo(80 - i * 12, 16),
    };
  });
  const quoteIds = await ctx.list('quotes', quoteRows);
  await ctx.list(
    'quote_lines',
    productLines(
      lists,
      'quote_id',
      quoteIds,
      plan.quotes.map((q) => q.products),
    ),
  );
  const acceptedIndex = plan.quotes.findIndex((q) => q.status === 3);
  const acceptedQuoteId = quoteIds[acceptedIndex]!;
  const projectIds = await ctx.list(
    'projects',
    plan.projects.map((name, i) => ({
      ...C,
      name,
      description: `Project voortkomend uit "${plan.quotes[acceptedIndex]!.name}".`,
      deal_id: quoteRows[acceptedIndex]!.deal_id,
      operator_id: at(people.operators, i).id,
      start_date: dateIn(-60 + i * 20),
      end_date: dateIn(30 + i * 30),
      created_at: daysAgo(75),
      updated_at: daysAgo(4),
    })),
  );

  // Subscriptions with lines.
  const subscriptions = (sales.subscriptions as SubscriptionPlan[]).map((s) => ({
    ...s,
    lines: s.lines.map(([code, quantity]): [string, number] => [
      code,
      quantity === 'workplaces' ? plan.workplaces : quantity,
    ]),
    terminated: plan.terminatedSubscriptions.includes(s.description),
  }));
  const subscriptionIds = await ctx.list(
    'subscriptions',
    subscriptions.map((s, i) => {
      const total = round2(
        s.lines.reduce((sum, [code, quantity]) => sum + product(code).price * quantity, 0),
      );
      const m = PERIOD_MONTHS[s.period]!;
      const start = monthStart(-((today.getUTCMonth() + i) % m));
      return {
        ...C,
        description: s.description,
        period: s.period,
        periods: 1,
        total,
        mrr: round2(total / m),
        billing_start_date: isoDate(monthStart(-14 - i * 3)),
        start_period: isoDate(start),
        end_period: isoDate(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, 0))),
        next_billing_date: isoDate(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, 1))),
        termination_date: s.terminated ? dateIn(45) : null,
        direct_debit: i !== 2,
        created_at: daysAgo(430 - i * 90),
        updated_at: daysAgo(15 + i),
      };
    }),
  );
  await ctx.list(
    'subscription_lines',
    productLines(
      lists,
      'subscription_id',
      subscriptionIds,
      subscriptions.map((s) => s.lines),
    ),
  );

  // Invoices in every status (and a draft: no external id yet).
  const invoicePlans: InvoicePlan[] = sales.invoices;
  const invoiceLines = (i: number, credit: boolean): [string, string, number, number][] => {
    const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - i, 1)).toLocaleDateString(
      'nl-NL',
      { month: 'long', year: 'numeric', timeZone: 'UTC' },
    );
    if (credit)
      return [['SRV-WERKPLEK', `Creditering werkplekken ${month}`, -2, product('SRV-WERKPLEK').price]];
    return [
      ['SRV-WERKPLEK', `Managed werkplekken ${month}`, plan.workplaces, product('SRV-WERKPLEK').price],
      [
        'LIC-M365-BP',
        `Microsoft 365 Business Premium ${month}`,
        plan.workplaces,
        product('LIC-M365-BP').price,
      ],
      ['ARB-UUR', 'Werkzaamheden buiten contract', 1 + (i % 3), product('ARB-UUR').price],
    ];
  };
  const invoiceRows = invoicePlans.map((p, i) => {
    const lines = invoiceLines(i, p.credit ?? false);
    const excl = round2(lines.reduce((sum, [, , quantity, price]) => sum + quantity * price, 0));
    const code = p.draft
      ? null
      : `F${today.getUTCFullYear()}-${String(++numbering.invoice).padStart(4, '0')}`;
    return {
      row: {
        ...C,
        external_id: p.draft ? null : `EXT-${10000 + numbering.invoice}`,
        code,
        reference: p.credit
          ? `Creditnota ${plan.name}`
          : `Factuur ${plan.name} ${dateIn(-p.daysAgo).slice(0, 7)}`,
        amount_excl: excl,
        amount_incl: round2(excl * 1.21),
        date: dateIn(-p.daysAgo),
        due_date: dateIn(p.dueIn),
        status_id: p.status,
        created_at: daysAgo(p.daysAgo),
        updated_at: daysAgo(Math.max(1, Math.min(p.daysAgo, -p.dueIn))),
      },
      lines,
    };
  });
  const invoiceIds = await ctx.list(
    'invoices',
    invoiceRows.map((r) => r.row),
  );
  await ctx.list(
    'invoice_lines',
    invoiceRows.flatMap((r, i) =>
      r.lines.map(([code, description, quantity, price], order) => ({
        invoice_id: invoiceIds[i],
        product_id: product(code).id,
        description,
        quantity,
        price,
        vat_percentage: 21,
        total: round2(quantity * price),
        order: order + 1,
      })),
    ),
  );

  return {
    periods,
    prepaidPeriod,
    paidInvoiceId: invoiceIds[0]!,
    draftInvoiceId: invoiceIds[invoicePlans.length - 1]!,
    projectIds,
    acceptedQuoteId,
  };
}

/** Products used on a project (by quote, by purchase, by after-calculation) and on a ticket. */
export async function seedUsedProducts(
  ctx: SeedContext,
  lists: Lists,
  companies: (CompanySales & { id: number; ticketIds: number[] })[],
): Promise<void> {
  const { product } = lists;
  await ctx.list(
    'used_products',
    companies.flatMap((company) => {
      const lap = product('HW-LAP-14');
      const hours = product('ARB-UUR');
      const toner = product('HW-MFP-A4');
      const rows: Row[] = [
        {
          project_id: company.projectIds[0],
          quote_id: company.acceptedQuoteId,
          product_id: hours.id,
          description: 'Projecturen volgens offerte',
          quantity: 8,
          price: hours.price,
          total: round2(8 * hours.price),
          invoice_moment: 1,
          type: 2,
          invoice_id: company.paidInvoiceId,
        },
        {
          project_id: company.projectIds[0],
          product_id: lap.id,
          description: lap.product_name,
          quantity: 1,
          price: lap.price,
          total: lap.price,
          invoice_moment: 2,
          type: 1,
          invoice_id: null,
        },
        {
          project_id: company.projectIds[company.projectIds.length - 1],
          description: 'Nacalculatie bekabeling',
          quantity: 1,
          price: 240,
          total: 240,
          invoice_moment: 3,
          type: 3,
          invoice_id: null,
        },
        {
          ticket_id: company.ticketIds[3]!,
          product_id: toner.id,
          description: 'Vervangende multifunctional geleverd',
          quantity: 1,
          price: toner.price,
          total: toner.price,
          invoice_moment: 1,
          type: 1,
          invoice_id: company.draftInvoiceId,
        },
      ];
      return rows.map((row, i) => ({
        company_id: company.id,
        created_at: ctx.daysAgo(50 - i * 10),
        updated_at: ctx.daysAgo(5),
        ...row,
      }));
    }),
  );
}
