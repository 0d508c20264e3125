/**
 * The API calls the benchmark measures: the lists people open, as the apps send them (issue 40). The
 * ticket calls come from ./app-requests.ts, whose query strings tests/e2e/bench-requests.spec.ts
 * compares with the real screens' calls; `screen` says which screen a scenario stands for and whether
 * that comparison covers it.
 */
import type { Dataset } from './dataset.ts';
import {
  globalSearchPath,
  presetCountsPath,
  ticketListPath,
  ticketRecordPath,
  ticketThreadPath,
} from './app-requests.ts';

export interface Scenario {
  name: string;
  /** Who calls: an operator or the portal client. */
  as: 'operator' | 'client';
  path: string;
  /** The screen that sends this call; `checked`: tests/e2e/bench-requests.spec.ts compares the two. */
  screen: string;
  checked: boolean;
  /**
   * List scenarios carry the target API ≤ 1.25 × raw SQL; filtered ones (and the dashboard) also
   * ≤ 50 ms median.
   */
  list: boolean;
  filtered: boolean;
  /** A median the API call must stay within, printed beside it (the global search: 100 ms). */
  medianTargetMs?: number;
}

/** Issue 18: the app bar's search stays within this at a million tickets. */
export const SEARCH_TARGET_MS = 100;

/** The back office's default ticket list, page 1, as an operator without a layout of their own opens it. */
export const DEFAULT_LIST = ticketListPath({ app: 'backoffice' });

/** The page of the deep-page scenario: page 5,000 (row 75,000), or the last but one of a smaller set. */
export const deepPageOf = (tickets: number) => Math.min(5_000, Math.max(1, Math.ceil(tickets / 15) - 1));

export function scenarios(data: Dataset): Scenario[] {
  const deepPage = deepPageOf(data.tickets);
  const presets = [
    { id: 1, builder: [{ whereIn: ['status_id', data.statusIds.slice(0, 5)] as [string, number[]] }] },
    { id: 2, builder: [{ where: ['operator_id', '=', 'me'] as [string, '=', string] }] },
    { id: 3, builder: [{ whereIn: ['priority_id', data.priorityIds.slice(2)] as [string, number[]] }] },
    { id: 4, builder: [{ whereNull: 'resolved_at' }] },
    { id: 5, builder: [{ where: ['company_id', '=', data.filterCompanyId] as [string, '=', number] }] },
  ];
  const list = { list: true, filtered: false, checked: true } as const;
  const filtered = { list: true, filtered: true, checked: false } as const;
  return [
    {
      name: 'default list (operator)',
      as: 'operator',
      path: DEFAULT_LIST,
      screen: 'back office: tickets, default layout',
      ...list,
    },
    {
      name: 'default list (portal client)',
      as: 'client',
      path: ticketListPath({ app: 'portal' }),
      screen: 'portal: tickets, default layout',
      ...list,
    },
    {
      name: 'list sorted by reference',
      as: 'operator',
      path: ticketListPath({ app: 'backoffice', sort: { field: 'reference', order: 'ASC' } }),
      screen: "back office: tickets, the reference header's sort",
      ...list,
    },
    {
      name: `list page ${deepPage.toLocaleString('en')} (operator)`,
      as: 'operator',
      path: ticketListPath({ app: 'backoffice', page: deepPage }),
      screen: 'back office: tickets, next page (as page 2)',
      ...list,
    },
    // The global search (issue 18 item 2): a word in 1 of 24 ticket descriptions (tens of thousands of
    // matches to take the newest five of), a ticket reference, and a word nothing holds.
    ...[
      ['global search: common word', 'printer'],
      ['global search: reference', `B-${String(Math.max(1, data.tickets - 7)).padStart(7, '0')}`],
      ['global search: no match', 'qqzzxx'],
    ].map(([name, q]) => ({
      name: name!,
      as: 'operator' as const,
      path: globalSearchPath(q!),
      screen: "back office: the app bar's search",
      list: false,
      filtered: false,
      checked: true,
      medianTargetMs: SEARCH_TARGET_MS,
    })),
    {
      name: 'ticket record (operator)',
      as: 'operator',
      path: ticketRecordPath(data.detailTicketId),
      screen: "back office: a ticket's screen, its record",
      list: false,
      filtered: false,
      checked: true,
    },
    {
      name: 'ticket thread (operator)',
      as: 'operator',
      path: ticketThreadPath(data.detailTicketId),
      screen: "back office: a ticket's screen, its messages",
      list: false,
      filtered: false,
      checked: true,
    },
    // Filters as the list's header controls send them, on the default layout's relations.
    {
      name: 'filtered: status+company+search',
      as: 'operator',
      path: ticketListPath({
        app: 'backoffice',
        filter: { status_id: data.filterStatusId, company_id: data.filterCompanyId, q: 'printer' },
      }),
      screen: 'back office: tickets, header filters',
      ...filtered,
    },
    {
      name: 'whereHas company name',
      as: 'operator',
      path: ticketListPath({
        app: 'backoffice',
        filter: { '@builder': [{ whereHas: ['company', [{ where: ['name', 'like', 'Bakker Zorg'] }]] }] },
      }),
      screen: 'back office: tickets, a relation condition',
      ...filtered,
    },
    {
      name: 'preset counts (5)',
      as: 'operator',
      path: presetCountsPath(presets),
      screen: "back office: the list toolbar's presets",
      list: false,
      filtered: true,
      checked: false,
    },
    // Issue 35: the 'breaches within 1 h' view (open statuses, next SLA due by now + 1 h).
    {
      name: "filtered: SLA 'breaches within 1 h'",
      as: 'operator',
      path: ticketListPath({
        app: 'backoffice',
        filter: {
          status_id: data.openStatusIds,
          'sla_due@<=': new Date(Date.now() + 3600 * 1000).toISOString(),
        },
      }),
      screen: 'back office: tickets, an SLA view',
      ...filtered,
    },
    // Issue 35: sorted by resolution due (tickets_resolution_due_idx, an index scan).
    {
      name: 'list sorted by resolution due',
      as: 'operator',
      path: ticketListPath({ app: 'backoffice', sort: { field: 'resolution_due', order: 'ASC' } }),
      screen: 'back office: tickets, a sort of the columns dialog',
      list: true,
      filtered: false,
      checked: false,
    },
    // The operator's start page (issue 18; with the SLA figures of issue 35 since): its target is the
    // filtered lists' 50 ms median.
    {
      name: 'dashboard (operator)',
      as: 'operator',
      path: '/api/dashboard',
      screen: 'back office: dashboard',
      list: false,
      filtered: true,
      checked: false,
    },
  ];
}
