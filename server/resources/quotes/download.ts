/** The quote as a PDF, with its acceptance when accepted. */
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord } from '../repository.ts';
import { quotePdf } from '../../pdf/quote.ts';
import { attachment, pdfFileName } from '../../pdf/layout.ts';
import { actionRoute, BINARY } from '../../docs/action-schema.ts';
import { quoteExpired } from '../../../common/quote-validity.ts';
import type { QuoteCalls } from './calls.ts';
import { ACCEPTED } from './decision.ts';

export function downloadRoute({ app, db, deps, quotes }: QuoteCalls): void {
  app.post<RecordParams>(
    '/api/quotes/:id/download',
    actionRoute({
      tag: quotes.name,
      operationId: 'quotesDownload',
      summary: 'The quote as a PDF',
      description: 'Saved as `{name}.pdf`; for whoever may see the quote and holds `download`.',
      answers: { 200: { description: 'The PDF.', content: { 'application/pdf': BINARY } } },
    }),
    async (request, reply) => {
      const auth = await authorize(request, quotes, 'download');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, quotes, id);
      const quote = await db
        .selectFrom('quotes as q')
        .leftJoin('companies as c', 'c.id', 'q.company_id')
        .leftJoin('users as u', 'u.id', 'q.client_id')
        .select([
          'q.name',
          'q.description',
          'q.status_id',
          'q.total',
          'q.valid_until',
          'q.sent_at',
          'q.created_at',
          'q.signed_name',
          'q.signed_note',
          'q.signature',
          'q.accepted_at',
          'q.declined_at',
          'c.name as company',
          'u.full_name as client',
        ])
        .where('q.id', '=', id)
        .where('q.tenant_id', '=', auth.tenantId)
        .executeTakeFirstOrThrow();
      const lines = await db
        .selectFrom('quote_lines')
        .select(['description', 'quantity', 'price', 'total'])
        .where('quote_id', '=', id)
        .where('tenant_id', '=', auth.tenantId)
        .orderBy('order')
        .orderBy('id')
        .execute();
      const accepted = Number(quote.status_id) === ACCEPTED && quote.accepted_at;
      const pdf = await quotePdf({
        tenantName: request.tenant.name,
        name: quote.name,
        description: quote.description,
        statusId: Number(quote.status_id),
        company: quote.company,
        client: quote.client,
        createdAt: quote.created_at,
        sentAt: quote.sent_at,
        validUntil: quote.valid_until,
        expired: quoteExpired({ status_id: quote.status_id, valid_until: quote.valid_until }),
        total: quote.total,
        lines,
        acceptance: accepted
          ? {
              name: quote.signed_name ?? '',
              note: quote.signed_note,
              signature: quote.signature,
              acceptedAt: quote.accepted_at!,
            }
          : null,
        declinedAt: quote.declined_at,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(pdfFileName(quote.name, `quote-${id}`), quote.name))
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
}
