/** The API calls the benchmark measures, as the apps send them (bracket-style builder query strings). */
import qs from 'qs';
import type { Dataset } from './dataset.ts';

export interface Scenario {
  name: string;
  /** Who calls: an operator or the portal client. */
  as: 'operator' | 'client';
  path: string;
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
const searchPath = (q: string) => `/api/search?${qs.stringify({ q })}`;

const PAGE = [{ paginate: 15 }, { orderBy: ['updated_at', 'desc'] }];
const WITH = ['company', 'status'];

export const listPath = (builder: object[], page = 1) =>
  `/api/tickets?${qs.stringify({ builder, with: WITH, page })}`;

/** The default tickets list page of the back office. */
export const DEFAULT_LIST = listPath(PAGE);

export function scenarios(data: Dataset): Scenario[] {
  const lastPage = Math.ceil(data.tickets / 15);
  const deepPage = Math.min(5_000, Math.max(1, lastPage - 1));
  const presets = [
    { id: 1, builder: [{ whereIn: ['status_id', data.statusIds.slice(0, 5)] }] },
    { id: 2, builder: [{ where: ['operator_id', '=', 'me'] }] },
    { id: 3, builder: [{ whereIn: ['priority_id', data.priorityIds.slice(2)] }] },
    { id: 4, builder: [{ whereNull: 'resolved_at' }] },
    { id: 5, builder: [{ where: ['company_id', '=', data.filterCompanyId] }] },
  ];
  return [
    { name: 'list page 1 (operator)', as: 'operator', path: listPath(PAGE), list: true, filtered: false },
    {
      name: `list page ${deepPage.toLocaleString('en')}`,
      as: 'operator',
      path: listPath(PAGE, deepPage),
      list: true,
      filtered: false,
    },
    { name: 'list page 1 (portal client)', as: 'client', path: listPath(PAGE), list: true, filtered: false },
    {
      name: 'filtered: status+company+search',
      as: 'operator',
      path: listPath([
        ...PAGE,
        { where: ['status_id', '=', data.filterStatusId] },
        { where: ['company_id', '=', data.filterCompanyId] },
        { s: 'printer' },
      ]),
      list: true,
      filtered: true,
    },
    {
      name: 'whereHas company name',
      as: 'operator',
      path: listPath([...PAGE, { whereHas: ['company', [{ where: ['name', 'like', 'Bakker Zorg'] }]] }]),
      list: true,
      filtered: true,
    },
    {
      name: 'preset counts (5)',
      as: 'operator',
      path: `/api/presets-result-count/tickets?${qs.stringify({ builders: presets })}`,
      list: false,
      filtered: true,
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
      path: searchPath(q!),
      list: false,
      filtered: false,
      medianTargetMs: SEARCH_TARGET_MS,
    })),
    // Issue 35: the list sorted by resolution due (tickets_resolution_due_idx, an index scan) and the
    // 'breaches within 1 h' view as the app sends it (open statuses, next SLA due by now + 1 h).
    {
      name: 'list sorted by resolution due',
      as: 'operator',
      path: listPath([{ paginate: 15 }, { orderBy: ['resolution_due', 'asc'] }]),
      list: true,
      filtered: false,
    },
    {
      name: "filtered: SLA 'breaches within 1 h'",
      as: 'operator',
      path: listPath([
        ...PAGE,
        { whereIn: ['status_id', data.openStatusIds] },
        { where: ['sla_due', '<=', new Date(Date.now() + 3600 * 1000).toISOString()] },
      ]),
      list: true,
      filtered: true,
    },
    // The operator's start page (issue 18; with the SLA figures of issue 35 since): its target is the
    // filtered lists' 50 ms median.
    { name: 'dashboard (operator)', as: 'operator', path: '/api/dashboard', list: false, filtered: true },
    {
      name: 'ticket detail + messages',
      as: 'operator',
      path: `/api/tickets/${data.detailTicketId}?${qs.stringify({ with: ['messages', 'status', 'company'] })}`,
      list: false,
      filtered: false,
    },
  ];
}
