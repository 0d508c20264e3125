/**
 * The portal's subscription detail (SPEC 2): cards for period, total, start, period start and end and
 * termination date; a table of the lines (description, quantity, price, total); the total; and the
 * monthly amount (MRR).
 */
import { recordTitle, useReloadOnEvent } from '../../custom/detail/parts.tsx';
import { FieldCards, FieldValue } from '../../custom/detail/FieldCards.tsx';
import { LinesTable } from '../../custom/detail/LinesTable.tsx';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { useGetManyReference, useShowContext, useTranslate, type RaRecord } from 'react-admin';
import { formatPeriodDate } from '../../../common/format.ts';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { ShowRecord } from '../../custom/detail/ShowRecord.tsx';
import { ScreenFrame } from '../../custom/detail/ScreenFrame.tsx';

const subscriptions = () => registry.require('subscriptions');

function Lines({ subscription }: { subscription: RaRecord }) {
  const translate = useTranslate();
  const { data = [], isPending } = useGetManyReference('subscription-lines', {
    target: 'subscription_id',
    id: subscription.id,
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'order', order: 'ASC' },
  });
  const columns: { name: string; key: string }[] = [
    { name: 'description', key: 'app.subscription.description' },
    { name: 'quantity', key: 'app.subscription.quantity' },
    { name: 'price', key: 'app.subscription.price' },
    { name: 'total', key: 'app.subscription.line_total' },
  ];
  const total = (name: string) => (
    <FieldValue resource={subscriptions().name} name={name} record={subscription} />
  );
  return (
    <LinesTable
      resource="subscription-lines"
      labelledBy="subscription-lines-title"
      rows={isPending ? [] : data}
      columns={columns.map((c) => ({
        name: c.name,
        label: translate(c.key),
        align: c.name === 'description' ? 'left' : 'right',
      }))}
      totals={[
        {
          key: 'total',
          label: translate('app.subscription.total'),
          value: total('total'),
          testId: 'subscription-total',
        },
        {
          key: 'mrr',
          label: translate('app.subscription.monthly_amount'),
          value: total('mrr'),
          testId: 'subscription-mrr',
        },
      ]}
    />
  );
}

function SubscriptionBody() {
  const translate = useTranslate();
  const { record, refetch, isPending } = useShowContext();

  useReloadOnEvent(refetch);

  if (isPending || !record) return null;
  const resource = subscriptions();
  const title = recordTitle(translate, resource, record);
  // SPEC 9: the dates of a period read DD-MM-YYYY.
  const cards: { key: string; field: string; periodDate?: true }[] = [
    { key: 'app.subscription.period', field: 'period' },
    { key: 'app.subscription.total', field: 'total' },
    { key: 'app.subscription.start', field: 'billing_start_date' },
    { key: 'app.subscription.period_start', field: 'start_period', periodDate: true },
    { key: 'app.subscription.period_end', field: 'end_period', periodDate: true },
    { key: 'app.subscription.termination_date', field: 'termination_date' },
  ];

  return (
    <ScreenFrame title={title}>
      <Stack spacing={2}>
        <FieldCards
          resource={resource.name}
          record={record}
          size={{ xs: 12, sm: 6, md: 4 }}
          emptyText
          cards={cards.map((card) => ({
            field: card.field,
            label: translate(card.key),
            value: card.periodDate ? formatPeriodDate(record[card.field]) : undefined,
          }))}
        />
        <Card component="section" aria-labelledby="subscription-lines-title">
          <CardContent>
            <Typography id="subscription-lines-title" variant="h6" component="h2" gutterBottom>
              {translate('app.subscription.lines')}
            </Typography>
            <Lines subscription={record} />
          </CardContent>
        </Card>
      </Stack>
    </ScreenFrame>
  );
}

export default function PortalSubscriptionDetail() {
  return (
    <ShowRecord resource="subscriptions" meta={{ with: referencesOf(subscriptions(), true) }}>
      <SubscriptionBody />
    </ShowRecord>
  );
}
