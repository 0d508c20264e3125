/**
 * SPEC 7 GET time-registrations/open: the time registrations not on any invoice yet (invoice_id null),
 * i.e. what is still to be invoiced. Everything else is the generic list: the same builder query, scope,
 * paging and answer. Permission `tenant.time-registrations.open`.
 */
import { parseListQuery } from '../../query/parse.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput } from '../../http/route-validation.ts';
import { listRecords, type Deps } from '../repository.ts';
import { actionRoute, listQuery, OPERATORS_ONLY, schemaRef } from '../../docs/action-schema.ts';
import { namesOf } from '../../docs/components.ts';
import { answerSizeCeiling } from '../../http/answer-size.ts';

export const timeRegistrationActions: ActionPlugin = async (app, { db, registry }) => {
  const timeRegistrations = registry.require('time-registrations');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const invoiceId = timeRegistrations.fields.invoice_id!;

  app.get(
    '/api/time-registrations/open',
    {
      ...actionRoute({
        tag: timeRegistrations.name,
        operationId: 'timeRegistrationsOpen',
        summary: 'Time registrations on no invoice yet',
        description:
          'The generic list of time registrations (same builder query, paging and answer) limited to those ' +
          `whose \`invoice_id\` is null. Permission \`tenant.time-registrations.open\`. ${OPERATORS_ONLY}`,
        params: false,
        query: listQuery(),
        answers: {
          200: {
            description: 'A page of time registrations.',
            schema: schemaRef(namesOf(registry, timeRegistrations).page),
          },
        },
      }),
      onSend: answerSizeCeiling('builder'),
    },
    async (request) => {
      const auth = await authorize(request, timeRegistrations, 'open');
      const query = parseListQuery(
        { registry, auth },
        timeRegistrations,
        request.query as Record<string, unknown>,
      );
      // The builder parser first: its 422s are the list's own (the generic lists' too, for now).
      validInput(request);
      query.conditions.push({ type: 'whereNull', field: invoiceId });
      return listRecords(deps, auth, timeRegistrations, query);
    },
  );
};
