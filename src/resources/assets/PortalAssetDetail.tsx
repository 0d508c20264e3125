/**
 * The portal's asset detail (SPEC 2 and 4): name, client, company, the warranty-until card with the due
 * date badge (schemas/assets.json x-badge: src/custom/detail/DateBadge.tsx), and a table of name,
 * description, serial and tracking number, and its messages (the message thread, as on a ticket).
 */
import { InfoCard, recordTitle, useReloadOnEvent } from '../../custom/detail/parts.tsx';
import { DetailTable } from '../../custom/detail/DetailTable.tsx';
import { Box, Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import { useShowContext, useTranslate, type RaRecord } from 'react-admin';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { ShowRecord } from '../../custom/detail/ShowRecord.tsx';
import { FieldDisplay } from '../fieldTypes.tsx';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import MessageThread from '../../custom/thread/MessageThread.tsx';

const assets = () => registry.require('assets');

function Value({ name, record }: { name: string; record: RaRecord }) {
  const field = assets().fields[name];
  return field ? <FieldDisplay resource={assets()} field={field} record={record} full /> : null;
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
            {/* The due date badge (SPEC 4), from the schema's x-badge. */}
            <Value name="warranty_until" record={record} />
          </InfoCard>
        </Grid>
        <Card component="section" aria-labelledby="asset-details-title">
          <CardContent>
            <Typography id="asset-details-title" variant="h6" component="h2" gutterBottom>
              {translate('app.asset.details')}
            </Typography>
            {/* A table from 768 px; below, its values stack, so nothing runs off the card. */}
            <DetailTable
              labelledBy="asset-details-title"
              rows={[record]}
              columns={columns.map((name) => ({
                key: name,
                label: head(name),
                cell: (row: RaRecord) => <Value name={name} record={row} />,
              }))}
            />
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
    <ShowRecord resource="assets" meta={{ with: referencesOf(assets(), true) }}>
      <AssetBody />
    </ShowRecord>
  );
}
