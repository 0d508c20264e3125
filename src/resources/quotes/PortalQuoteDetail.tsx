/**
 * The portal's quote detail (SPEC 2, 4 and 5): company and client, the lines with their totals in
 * euros, a PDF download; a sent quote (status 2) shows the acceptance form with a signature pad, an
 * accepted (3) or rejected (4) one says so. Accepting reloads the detail.
 */
import { saveBlob } from '../../custom/saveBlob.ts';
import { ScrollableTable, recordTitle, useReloadOnEvent } from '../../custom/detail/parts.tsx';
import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import {
  ShowBase,
  useDataProvider,
  useGetManyReference,
  useNotify,
  useShowContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { FieldDisplay } from '../fieldTypes.tsx';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { AcceptForm } from './AcceptForm.tsx';

const SENT = 2;
const ACCEPTED = 3;
const REJECTED = 4;

const quotes = () => registry.require('quotes');
const lines = () => registry.require('quote-lines');

/** A readable field of a resource, shown by the one formatter (fieldTypes). */
function Value({ resource, name, record }: { resource: string; name: string; record: RaRecord }) {
  const schema = registry.require(resource);
  const field = schema.fields[name];
  return field ? <FieldDisplay resource={schema} field={field} record={record} full /> : null;
}

function QuoteLines({ quote }: { quote: RaRecord }) {
  const translate = useTranslate();
  const { data = [], isPending } = useGetManyReference('quote-lines', {
    target: 'quote_id',
    id: quote.id,
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'order', order: 'ASC' },
  });
  const head = (name: string) => translate(`resources.quote-lines.fields.${name}`, { _: name });
  const numeric = ['quantity', 'price', 'total'];
  return (
    <ScrollableTable labelledBy="quote-lines-title">
      <Table size="small" aria-labelledby="quote-lines-title">
        <TableHead>
          <TableRow>
            {['description', ...numeric].map((name) => (
              <TableCell key={name} align={numeric.includes(name) ? 'right' : 'left'}>
                {head(name)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {!isPending &&
            data.map((line) => (
              <TableRow key={line.id}>
                <TableCell>
                  <Value resource={lines().name} name="description" record={line} />
                </TableCell>
                {numeric.map((name) => (
                  <TableCell key={name} align="right">
                    <Value resource={lines().name} name={name} record={line} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell colSpan={3} sx={{ fontWeight: 700, color: 'text.primary' }}>
              {head('total')}
            </TableCell>
            <TableCell align="right" sx={{ fontWeight: 700, color: 'text.primary' }}>
              <Value resource={quotes().name} name="total" record={quote} />
            </TableCell>
          </TableRow>
        </TableFooter>
      </Table>
    </ScrollableTable>
  );
}

function QuoteBody() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { record, refetch, isPending } = useShowContext();
  const [downloading, setDownloading] = useState(false);

  useReloadOnEvent(refetch);

  if (isPending || !record) return null;
  const resource = quotes();
  const label = String(record[resource.label] ?? record.id);
  const title = recordTitle(translate, resource, record);
  const status = Number(record.status_id);

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
  ];

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <DocumentTitle section={title} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <Button startIcon={<DownloadIcon />} variant="outlined" onClick={download} disabled={downloading}>
          {translate('app.quote.download_pdf')}
        </Button>
      </Box>
      <Stack spacing={2}>
        <Grid container spacing={2}>
          {cards.map((card) => (
            <Grid key={card.field} size={{ xs: 12, sm: 4 }}>
              <Card sx={{ height: '100%' }}>
                <CardContent component="dl" sx={{ m: 0 }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {translate(card.key)}
                  </Typography>
                  <Typography component="dd" variant="body1" sx={{ m: 0 }}>
                    <Value resource={resource.name} name={card.field} record={record} />
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
        <Card component="section" aria-labelledby="quote-lines-title">
          <CardContent>
            <Typography id="quote-lines-title" variant="h6" component="h2" gutterBottom>
              {translate('resources.quote-lines.name', { smart_count: 2, _: 'Lines' })}
            </Typography>
            <QuoteLines quote={record} />
          </CardContent>
        </Card>
        {status === SENT && <AcceptForm quote={record} onAccepted={() => void refetch()} />}
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
    </Box>
  );
}

export default function PortalQuoteDetail() {
  return (
    <ShowBase resource="quotes" queryOptions={{ meta: { with: referencesOf(quotes(), true) } }}>
      <QuoteBody />
    </ShowBase>
  );
}
