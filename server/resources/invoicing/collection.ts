/**
 * SPEC 7's collection `invoicing/invoices`: GET /api/invoicing/invoices lists the invoices in the
 * invoicing shape of SPEC 3 (the version-2 listing: InvoiceCode, ReferenceNumber, AmountIncl, Date,
 * Status, ViewURL), whose ViewURL is the path that `GET /invoicing{ViewURL}` answers with the file. It is
 * the generic invoice list under another address: the same builder query, portal scope, paging and
 * permission (`invoices.index`, for operators and clients alike); `?version=1` answers the invoice
 * records themselves. The static path wins over `/api/invoicing/:id` (the file), whatever the order.
 */
import { parseListQuery } from '../../query/parse.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput } from '../../http/route-validation.ts';
import { listRecords, type Deps } from '../repository.ts';
import { inVersion } from '../versions.ts';
import { ValidationError } from '../../http/errors.ts';
import { serverText } from '../../../common/server-texts.ts';
import { actionRoute, listQuery } from '../../docs/action-schema.ts';
import { paginated } from '../../docs/components.ts';
import { answerSizeCeiling } from '../../http/answer-size.ts';

/** The listing the invoicing collection answers when the caller names none. */
export const INVOICING_VERSION = 2;

export const invoicingCollection: ActionPlugin = async (app, { db, registry }) => {
  const invoices = registry.require('invoices');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.get(
    '/api/invoicing/invoices',
    {
      ...actionRoute({
        tag: invoices.name,
        operationId: 'invoicingInvoices',
        summary: 'List invoices in the invoicing shape',
        description:
          'The invoices list (the same builder query, paging, portal scope and permission ' +
          '`invoices.index` as `GET /invoices`) with rows in the version-2 shape: InvoiceCode, ' +
          'ReferenceNumber, AmountIncl, Date, Status, ViewURL; `GET /invoicing{ViewURL}` answers the file. ' +
          '`version=1` answers the invoice records instead.',
        params: false,
        query: listQuery(),
        answers: {
          200: {
            description: 'A page of rows in the version asked for (default 2).',
            // Rows of a version's listing are the tenant's own shape (schemas' x-versions): written as they are.
            schema: paginated({ type: 'object', additionalProperties: true }),
          },
        },
      }),
      onSend: answerSizeCeiling('builder'),
    },
    async (request) => {
      const auth = await authorize(request, invoices, 'index');
      const query = parseListQuery({ registry, auth }, invoices, request.query as Record<string, unknown>);
      // The builder parser first: its 422s are the list's own (the generic lists' too, for now).
      validInput(request);
      const version = query.version ?? INVOICING_VERSION;
      // This list answers in version 2 unless asked otherwise, where no field can be left out.
      if (query.columns && version !== 1)
        throw new ValidationError({ builder: [serverText('select_version')] });
      const page = await listRecords(deps, auth, invoices, query);
      return version === 1 ? page : inVersion(invoices, version, page);
    },
  );
};
