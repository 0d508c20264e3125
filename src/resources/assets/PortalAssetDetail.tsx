/**
 * The portal's asset detail (SPEC 2 and 4): name, client, company, the warranty-until card with the due
 * date badge (red when past, yellow when upcoming, a check mark without a date), and a table of name,
 * description, serial and tracking number, and its messages (the message thread, as on a ticket).
 */
import { InfoCard, ScrollableTable, recordTitle, useReloadOnEvent } from '../../custom/detail/parts.tsx';
import {
  Box,
  Card,
  CardContent,
  Grid,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import { ShowBase, useLocaleState, useShowContext, useTranslate, type RaRecord } from 'react-admin';
import { dueDateBadge } from '../../../common/format.ts';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { FieldDisplay, displayText } from '../fieldTypes.tsx';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import MessageThread from '../../custom/thread/MessageThread.tsx';

const assets = () => registry.require('assets');

function Value({ name, record }: { name: string; record: RaRecord }) {
  const field = assets().fields[name];
  return field ? <FieldDisplay resource={assets()} field={field} record={record} full /> : null;
}

/** Due date badge colours with AA contrast. */
const BADGE = {
  past: { bgcolor: '#b71c1c', color: '#ffffff' },
  upcoming: { bgcolor: '#ffe082', color: '#000000' },
} as const;

function WarrantyBadge({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const badge = dueDateBadge(record.warranty_until);
  if (badge === 'none')
    return (
      <CheckCircle
        color="success"
        titleAccess={translate('app.due_date.none')}
        sx={{ verticalAlign: 'middle' }}
        data-testid="warranty-badge"
      />
    );
  const text = displayText(assets(), assets().fields.warranty_until!, record, {
    locale,
    translate,
    appKind: 'portal',
  });
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <span>{text}</span>
      <Box
        component="span"
        data-testid="warranty-badge"
        sx={{ ...BADGE[badge], px: 1, borderRadius: 2, fontSize: '0.8125rem', lineHeight: 1.8 }}
      >
        {translate(`app.due_date.${badge}`)}
      </Box>
    </Box>
  );
}

function AssetBody() {
  const translate = useTranslate();
  const { record, refetch, isPending } = useShowContext();

  useReloadOnEvent(refetch);

  if (isPending || !record) return null;
  const resource = assets();
  const title = recordTitle(translate, resource, record);
  const head = (name: string) => translate(`resources.assets.fields.${name}`, { _: name });
  const columns = ['name', 'description', 'serial_number', 'tracking_number'];

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <DocumentTitle section={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={2}>
        <Grid container spacing={2}>
          <InfoCard label={head('name')}>
            <Value name="name" record={record} />
          </InfoCard>
          <InfoCard label={head('client_id')}>
            <Value name="client_id" record={record} />
          </InfoCard>
          <InfoCard label={head('company_id')}>
            <Value name="company_id" record={record} />
          </InfoCard>
          <InfoCard label={translate('app.asset.warranty_until')}>
            <WarrantyBadge record={record} />
          </InfoCard>
        </Grid>
        <Card component="section" aria-labelledby="asset-details-title">
          <CardContent>
            <Typography id="asset-details-title" variant="h6" component="h2" gutterBottom>
              {translate('app.asset.details')}
            </Typography>
            {/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too. */}
            <ScrollableTable labelledBy="asset-details-title">
              <Table size="small" aria-labelledby="asset-details-title">
                <TableHead>
                  <TableRow>
                    {columns.map((name) => (
                      <TableCell key={name}>{head(name)}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  <TableRow>
                    {columns.map((name) => (
                      <TableCell key={name}>
                        <Value name={name} record={record} />
                      </TableCell>
                    ))}
                  </TableRow>
                </TableBody>
              </Table>
            </ScrollableTable>
          </CardContent>
        </Card>
        <Card>
          <CardContent>
            <MessageThread morphType="asset" record={record} description={record.name} />
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}

export default function PortalAssetDetail() {
  return (
    <ShowBase resource="assets" queryOptions={{ meta: { with: referencesOf(assets(), true) } }}>
      <AssetBody />
    </ShowBase>
  );
}
