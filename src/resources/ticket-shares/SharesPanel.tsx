/**
 * Who a ticket is shared with (issue 39), a card below the ticket in the portal: the colleagues it is
 * shared with, each with a button that ends the share, and a choice of the other clients of the ticket's
 * company to share it with. Sharing is offered to the ticket's client and to a client whose company role
 * sees the company's tickets company-wide (the signed-in user's `companies[]`); the server checks the same
 * (server/resources/company-roles/access.ts `checkShare`). Nothing at all when there is nothing to show
 * and nothing to offer. Read before the detail shows (readBeforeShow.ts), as the other cards.
 */
import { useState, type FormEvent } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import { useGetList, useTranslate, type RaRecord } from 'react-admin';
import { storedUserMay } from '../../authProvider/index.ts';
import { getUser } from '../../dataProvider/storage.ts';
import { RAW_BUILDER_KEY } from '../../dataProvider/builder.ts';
import { anyFailed, useReadBeforeShow } from '../../custom/detail/readBeforeShow.ts';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { SlaCard } from '../tickets/sla/SlaCard.tsx';
import type { RecordActionsProps } from '../override-contract.ts';
import { seesCompanyWide } from '../../../common/user.ts';

const RESOURCE = 'ticket-shares';
/** A ticket shared with more colleagues than this is the company's: its admin sees it anyway. */
const MAX_SHARES = 100;

interface Share extends RaRecord {
  user_id: number;
  client?: { full_name?: string | null } | null;
}

const key = (name: string) => `resources.${RESOURCE}.panel.${name}`;

export default function SharesPanel({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const user = getUser();
  const companyId = record.company_id as number | null;
  const mayShare =
    companyId !== null &&
    user !== undefined &&
    storedUserMay('portal', RESOURCE, 'create') &&
    (record.client_id === user.id || seesCompanyWide(user, companyId, 'tickets'));
  const mayEnd = storedUserMay('portal', RESOURCE, 'delete');
  const read = useReadBeforeShow();
  const { data, refetch } = useSuspenseQuery(
    read.list(
      RESOURCE,
      {
        pagination: { page: 1, perPage: MAX_SHARES },
        sort: { field: 'id', order: 'ASC' },
        filter: { ticket_id: record.id },
        meta: { with: ['client'] },
      },
      storedUserMay('portal', RESOURCE, 'list'),
    ),
  );
  // The company's clients: the ticket's client and those it is shared with already are no choice.
  const colleagues = useGetList(
    'clients',
    {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'full_name', order: 'ASC' },
      filter: { [RAW_BUILDER_KEY]: [{ whereHas: ['companies', [{ where: ['id', '=', companyId ?? 0] }]] }] },
    },
    { enabled: mayShare },
  );
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const [chosen, setChosen] = useState<number | ''>('');

  if (data === null) return null;
  const title = translate(key('title'));
  if (anyFailed(data))
    return (
      <SlaCard title={title} testId="ticket-shares">
        <LoadFailed compact text="app.errors.generic" onRetry={() => void refetch()} />
      </SlaCard>
    );
  const shares = (data ?? []) as Share[];
  if (!mayShare && shares.length === 0) return null;
  const nameOf = (share: Share) => share.client?.full_name || `#${share.user_id}`;
  const choices = (colleagues.data ?? []).filter(
    (c) => c.id !== record.client_id && !shares.some((s) => s.user_id === c.id),
  );
  const chosenName = String(choices.find((c) => c.id === chosen)?.full_name ?? '');

  const share = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === '') return;
    void run(
      () => dataProvider.create(RESOURCE, { data: { ticket_id: record.id, user_id: chosen } }),
      { message: key('shared'), args: { name: chosenName } },
      () => {
        setChosen('');
        return refetch();
      },
    );
  };
  const end = (item: Share) =>
    run(
      () => dataProvider.delete(RESOURCE, { id: item.id, previousData: item }),
      { message: key('unshared'), args: { name: nameOf(item) } },
      () => refetch(),
    );

  return (
    <SlaCard title={title} testId="ticket-shares">
      {shares.length === 0 ? (
        <Typography color="text.secondary">{translate(key('none'))}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {shares.map((item, index) => (
            <Box
              component="li"
              key={item.id}
              data-share={nameOf(item)}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                py: 0.5,
                borderTop: index ? 1 : 0,
                borderColor: 'divider',
              }}
            >
              <Typography sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>{nameOf(item)}</Typography>
              {mayEnd && (
                <IconButton
                  size="small"
                  disabled={busy}
                  aria-label={translate(key('remove'), { name: nameOf(item) })}
                  onClick={() => void end(item)}
                >
                  <Close fontSize="small" />
                </IconButton>
              )}
            </Box>
          ))}
        </Box>
      )}
      {mayShare && choices.length > 0 && (
        <Box
          component="form"
          onSubmit={share}
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 2 }}
        >
          <TextField
            select
            size="small"
            label={translate(key('colleague'))}
            value={chosen}
            onChange={(event) => setChosen(Number(event.target.value))}
            sx={{ flex: '1 1 14rem', maxWidth: '24rem' }}
          >
            {choices.map((c) => (
              <MenuItem key={c.id} value={c.id as number}>
                {String(c.full_name ?? c.email ?? `#${c.id}`)}
              </MenuItem>
            ))}
          </TextField>
          <Button type="submit" variant="outlined" disabled={busy || chosen === ''}>
            {translate(key('add'))}
          </Button>
        </Box>
      )}
    </SlaCard>
  );
}
