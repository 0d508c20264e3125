/**
 * The portal's quote detail (SPEC 2, 4 and 5): company and client, the validity date, the lines with
 * their totals in euros, a PDF download; a sent quote (status 2) shows the acceptance form with a
 * signature pad, an accepted (3) or rejected (4) one says so. Accepting reloads the detail. A sent quote
 * past its validity date (common/quote-validity.ts) says so instead of showing the form: the server would
 * refuse the acceptance.
 *
 * The same screen opens through a quote e-mail's link (a record token, schemas/quotes.json
 * x-record-link): one call loads the quote with its lines and the names of its company and client,
 * which is all such a link may read, and the signer's name starts as the client's full name.
 */
import { saveBlob } from '../../custom/saveBlob.ts';
import { recordTitle, useReloadOnEvent } from '../../custom/detail/parts.tsx';
import { FieldCards, FieldValue } from '../../custom/detail/FieldCards.tsx';
import { LinesTable } from '../../custom/detail/LinesTable.tsx';
import { useState } from 'react';
import { Alert, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import {
  useDataProvider,
  useLocaleState,
  useNotify,
  useShowContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { ShowRecord } from '../../custom/detail/ShowRecord.tsx';
import { labelOf } from '../screens/generic.ts';
import { lineTotal, quoteTotal, type QuoteLineAmounts } from '../../../common/quote-totals.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { AcceptForm } from './AcceptForm.tsx';
import { ScreenFrame } from '../../custom/detail/ScreenFrame.tsx';
import { quoteExpired } from '../../../common/quote-validity.ts';
import { formatDate } from '../../../common/format.ts';

const SENT = 2;
const ACCEPTED = 3;
const REJECTED = 4;

const quotes = () => registry.require('quotes');
const lines = () => registry.require('quote-lines');
/** The relation that holds the quote's lines: loaded with the quote, in the same call. */
const LINES = 'lines';
/** The relation that names the quote's client (SPEC 5: the signer's name starts as theirs). */
const CLIENT = 'client';

function QuoteLines({ quote }: { quote: RaRecord }) {
  const translate = useTranslate();
  // The amounts as the quote's PDF has them: a line entered without a total counts quantity x price.
  type Line = RaRecord & QuoteLineAmounts;
  const data = [...((quote[LINES] as Line[] | undefined) ?? [])]
    .sort((a, b) => Number(a.order) - Number(b.order) || Number(a.id) - Number(b.id))
    .map((line): Line => ({ ...line, total: lineTotal(line) }));
  const totalled = { ...quote, total: quoteTotal(quote as { total?: number | null }, data) };
  const numeric = ['quantity', 'price', 'total'];
  return (
    <LinesTable
      resource={lines().name}
      labelledBy="quote-lines-title"
      rows={data}
      columns={['description', ...numeric].map((name) => ({
        name,
        align: numeric.includes(name) ? 'right' : 'left',
      }))}
      totals={[
        {
          key: 'total',
          label: translate(`resources.${lines().name}.fields.total`, { _: 'total' }),
          value: <FieldValue resource={quotes().name} name="total" record={totalled} />,
          testId: 'quote-total',
        },
      ]}
    />
  );
}

function QuoteBody() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { record, refetch, isPending } = useShowContext();
  const [downloading, setDownloading] = useState(false);

  useReloadOnEvent(refetch);

  if (isPending || !record) return null;
  const resource = quotes();
  const label = String(record[resource.label] ?? record.id);
  const title = recordTitle(translate, resource, record);
  const status = Number(record.status_id);
  const expired = quoteExpired(record);

  const download = async () => {
    setDownloading(true);
    try {
      const blob = await dataProvider.recordDownload(resource.name, record.id);
      saveBlob(blob, `${label}.pdf`);
    } catch {
      notify('app.errors.download_failed', { type: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  const cards: { key: string; field: string }[] = [
    { key: 'app.quote.company', field: 'company_id' },
    { key: 'app.quote.client', field: 'client_id' },
    { key: 'app.quote.status', field: 'status_id' },
    { key: `resources.${resource.name}.fields.valid_until`, field: 'valid_until' },
  ];

  return (
    <ScreenFrame
      title={title}
      actions={
        <Button startIcon={<DownloadIcon />} variant="outlined" onClick={download} disabled={downloading}>
          {translate('app.quote.download_pdf')}
        </Button>
      }
    >
      <Stack spacing={2}>
        <FieldCards
          resource={resource.name}
          record={record}
          size={{ xs: 12, sm: 6, md: 3 }}
          valueVariant="body1"
          cards={cards.map((card) => ({ field: card.field, label: translate(card.key) }))}
        />
        <Card component="section" aria-labelledby="quote-lines-title">
          <CardContent>
            <Typography id="quote-lines-title" variant="h6" component="h2" gutterBottom>
              {translate('resources.quote-lines.name', { smart_count: 2, _: 'Lines' })}
            </Typography>
            <QuoteLines quote={record} />
          </CardContent>
        </Card>
        {status === SENT && !expired && (
          <AcceptForm quote={record} defaultName={clientName(record)} onAccepted={() => void refetch()} />
        )}
        {status === SENT && expired && (
          <Alert severity="warning" role="status">
            {translate('quote_validity.portal_expired', {
              date: formatDate(record.valid_until as string, locale),
            })}
          </Alert>
        )}
        {status === ACCEPTED && (
          <Alert severity="success" role="status">
            {translate('app.quote.accepted')}
          </Alert>
        )}
        {status === REJECTED && (
          <Alert severity="error" role="status">
            {translate('app.quote.rejected')}
          </Alert>
        )}
      </Stack>
    </ScreenFrame>
  );
}

/** The full name of the quote's client, as loaded with it; undefined when the quote has none. */
function clientName(quote: RaRecord): string | undefined {
  const relation = quotes().relations[CLIENT];
  const clients = relation && 'resource' in relation ? registry.get(relation.resource) : undefined;
  const client = quote[CLIENT] as RaRecord | null | undefined;
  const name = clients && client ? client[labelOf(clients, 'portal')] : undefined;
  return typeof name === 'string' && name ? name : undefined;
}

export default function PortalQuoteDetail() {
  return (
    <ShowRecord resource="quotes" meta={{ with: [...referencesOf(quotes(), true), LINES] }}>
      <QuoteBody />
    </ShowRecord>
  );
}
