/**
 * The OpenAPI text of the back office's record calls of SPEC 7 (issue 6): close, restore, clone and merge
 * tickets, archive and merge companies, archive ticket groups. Kept apart from openapi.ts so these
 * contracts are read in one place.
 */
import { ERRORS, type Schema, ref } from '../refs.ts';

const answer = (description: string, schema: string) => ({
  description,
  content: { 'application/json': { schema: ref('schemas', schema) } },
});

const MERGE_BODY: Schema = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['ids'],
        additionalProperties: false,
        properties: {
          ids: {
            type: 'array',
            minItems: 2,
            maxItems: 100,
            uniqueItems: true,
            items: { type: 'integer', minimum: 1 },
            description: 'The first id is the record that is kept.',
          },
        },
      },
    },
  },
};

function recordCall(
  tag: string,
  operationId: string,
  summary: string,
  description: string,
  ok: Schema,
  status = 200,
): Schema {
  return {
    tags: [tag],
    operationId,
    summary,
    description,
    parameters: [ref('parameters', 'Id')],
    responses: { [status]: ok, ...ERRORS },
  };
}

function mergeCall(
  tag: string,
  operationId: string,
  summary: string,
  description: string,
  ok: Schema,
): Schema {
  return {
    tags: [tag],
    operationId,
    summary,
    description,
    requestBody: MERGE_BODY,
    responses: { 200: ok, ...ERRORS },
  };
}

const OPERATORS_ONLY = 'Operators only: clients get 403.';
const MERGE_FAILS =
  'An id that does not exist, is not visible to the caller or went in a merge that committed first is a ' +
  '422 naming it (`ids.<n>`), and nothing changes. The records are locked in id order, so two merges on ' +
  'overlapping ids wait for each other and lose no rows.';

/** Path items of these calls, for the resources the registry has. */
export function backOfficeActionPaths(
  has: (resource: string) => boolean,
): Record<string, Record<string, Schema>> {
  return {
    ...(has('tickets') && {
      '/tickets/{id}/close': {
        post: recordCall(
          'tickets',
          'ticketsClose',
          'Close a ticket',
          "The status becomes the tenant's first ticket status of internal type closed (2) and `resolved_at` " +
            `now. A closed or archived ticket answers 422. Permission \`tenant.tickets.close\`. ${OPERATORS_ONLY}`,
          answer('The closed ticket.', 'Ticket'),
        ),
      },
      '/tickets/{id}/restore': {
        post: recordCall(
          'tickets',
          'ticketsRestore',
          'Restore a closed or archived ticket',
          "Back to the status a new ticket starts in (the tenant's `default_ticket_status_id`, else its first " +
            'open status); `resolved_at` is cleared. Any other ticket answers 422. Permission ' +
            `\`tenant.tickets.restore\`. ${OPERATORS_ONLY}`,
          answer('The restored ticket.', 'Ticket'),
        ),
      },
      '/tickets/{id}/clone': {
        post: recordCall(
          'tickets',
          'ticketsClone',
          'Copy a ticket',
          "A new ticket with the ticket's own fields and custom values, a new reference and the status a new " +
            'ticket starts in; messages, attachments and time are not copied. Permission ' +
            `\`tenant.tickets.clone\`. ${OPERATORS_ONLY}`,
          answer('The new ticket.', 'Ticket'),
          201,
        ),
      },
      '/tickets/merge': {
        post: mergeCall(
          'tickets',
          'ticketsMerge',
          'Merge tickets into the first one',
          'Everything that points at the other tickets (messages with their attachments, time registrations, ' +
            'used products, custom values the first ticket lacks) moves to the first ticket; the others are ' +
            'closed. Tickets of different companies answer 422. One transaction. ' +
            `${MERGE_FAILS} Permission \`tenant.tickets.merge\`. ${OPERATORS_ONLY}`,
          answer('The kept ticket.', 'Ticket'),
        ),
      },
    }),
    ...(has('companies') && {
      '/companies/{id}/archive': {
        post: recordCall(
          'companies',
          'companiesArchive',
          'Archive a company',
          '`archived_at` becomes now; an archived company keeps its first date. Permission ' +
            `\`tenant.companies.archive\`. ${OPERATORS_ONLY}`,
          answer('The archived company.', 'Company'),
        ),
      },
      '/companies/merge': {
        post: mergeCall(
          'companies',
          'companiesMerge',
          'Merge companies into the first one',
          'Every row that refers to the other companies (tickets, assets, contracts, subscriptions, quotes, ' +
            'invoices, deals, projects, ticket groups, used products, clients without duplicates, custom ' +
            'values the first company lacks, messages on the company) moves to the first company; the others ' +
            `are deleted. One transaction. ${MERGE_FAILS} Permission \`tenant.companies.merge\`. ${OPERATORS_ONLY}`,
          answer('The kept company.', 'Company'),
        ),
      },
    }),
    ...(has('ticket-groups') && {
      '/ticket-groups/{id}/archive': {
        post: recordCall(
          'ticket-groups',
          'ticketGroupsArchive',
          'Archive a ticket group',
          '`archived_at` becomes now; an archived group keeps its first date. Restore with ' +
            '`PUT /ticket-groups/{id}` `{archived_at: null}`. Permission `tenant.ticket-groups.archive`. ' +
            OPERATORS_ONLY,
          answer('The archived ticket group.', 'TicketGroup'),
        ),
      },
    }),
  };
}

/** Every call's documentation; a route finds its own (route-schema.ts `documented`). */
export const BACK_OFFICE = backOfficeActionPaths(() => true);
