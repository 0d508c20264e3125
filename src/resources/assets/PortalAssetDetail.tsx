/**
 * The portal's asset detail (SPEC 2 and 4): name, client, company, the warranty-until card with the due
 * date badge (schemas/assets.json x-badge: src/custom/detail/DateBadge.tsx), and a table of name,
 * description, serial and tracking number, and its messages (the message thread, as on a ticket).
 */
import { recordTitle, useReloadOnEvent } from '../../custom/detail/parts.tsx';
import { FieldCards } from '../../custom/detail/FieldCards.tsx';
import { LinesTable } from '../../custom/detail/LinesTable.tsx';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { useShowContext, useTranslate } from 'react-admin';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { ShowRecord } from '../../custom/detail/ShowRecord.tsx';
import MessageThread from '../../custom/thread/MessageThread.tsx';
import { ScreenFrame } from '../../custom/detail/ScreenFrame.tsx';

const assets = () => registry.require('assets');

function AssetBody() {
  const translate = useTranslate();
  const { record, refetch, isPending } = useShowContext();

  useReloadOnEvent(refetch);

  if (isPending || !record) return null;
  const resource = assets();
  const title = recordTitle(translate, resource, record);

  return (
    <ScreenFrame title={title}>
      <Stack spacing={2}>
        <FieldCards
          resource={resource.name}
          record={record}
          cards={[
            { field: 'name' },
            { field: 'client_id' },
            { field: 'company_id' },
            // The due date badge (SPEC 4), from the schema's x-badge.
            { field: 'warranty_until', label: translate('app.asset.warranty_until') },
          ]}
        />
        <Card component="section" aria-labelledby="asset-details-title">
          <CardContent>
            <Typography id="asset-details-title" variant="h6" component="h2" gutterBottom>
              {translate('app.asset.details')}
            </Typography>
            <LinesTable
              resource={resource.name}
              labelledBy="asset-details-title"
              rows={[record]}
              columns={['name', 'description', 'serial_number', 'tracking_number'].map((name) => ({ name }))}
            />
          </CardContent>
        </Card>
        <Card>
          <CardContent>
            <MessageThread morphType="asset" record={record} description={record.name} />
          </CardContent>
        </Card>
      </Stack>
    </ScreenFrame>
  );
}

export default function PortalAssetDetail() {
  return (
    <ShowRecord resource="assets" meta={{ with: referencesOf(assets(), true) }}>
      <AssetBody />
    </ShowRecord>
  );
}
