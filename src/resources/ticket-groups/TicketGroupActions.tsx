/**
 * A ticket group's own actions in the back-office detail header (SPEC 4 and 7): archive through its
 * call, restore by setting archived_at to null (the generic update, so it needs the update permission
 * as well as restore). An archived group is marked.
 */
import { Button, Chip } from '@mui/material';
import ArchiveIcon from '@mui/icons-material/Archive';
import UnarchiveIcon from '@mui/icons-material/Unarchive';
import { useCanAccess, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { requestReload } from '../../dataProvider/reload.ts';
import { formatDate } from '../../../common/format.ts';

function useCan(action: string) {
  return useCanAccess({ resource: 'ticket-groups', action }).canAccess === true;
}

export default function TicketGroupActions({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const canArchive = useCan('archive');
  const mayRestore = useCan('restore');
  const mayUpdate = useCan('edit');
  const canRestore = mayRestore && mayUpdate;
  const archived = Boolean(record.archived_at);

  return (
    <>
      {archived && (
        <Chip
          color="warning"
          icon={<ArchiveIcon />}
          label={translate('app.record_actions.archived_since', {
            date: formatDate(String(record.archived_at)),
          })}
        />
      )}
      {canArchive && !archived && (
        <Button
          variant="outlined"
          startIcon={<ArchiveIcon />}
          disabled={busy}
          onClick={() =>
            void run(
              () => dataProvider.recordAction('ticket-groups', record.id, 'archive'),
              'app.record_actions.group_archived',
              requestReload,
            )
          }
        >
          {translate('app.record_actions.archive')}
        </Button>
      )}
      {canRestore && archived && (
        <Button
          variant="outlined"
          startIcon={<UnarchiveIcon />}
          disabled={busy}
          onClick={() =>
            void run(
              () =>
                dataProvider.update('ticket-groups', {
                  id: record.id,
                  data: { archived_at: null },
                  previousData: record,
                }),
              'app.record_actions.group_restored',
              requestReload,
            )
          }
        >
          {translate('app.record_actions.restore')}
        </Button>
      )}
    </>
  );
}
