/**
 * A ticket's own actions in the back-office detail header (SPEC 4 and 7): close, restore, clone and
 * merge, each shown only with its permission (tenant.tickets.<action>) and where the server would accept
 * it: close an open ticket, restore a closed or archived one (server/resources/tickets/actions.ts); and
 * the macros offered to the operator (tenant.macros.apply, ../../custom/macros/).
 */
import { useState } from 'react';
import { Button } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RestoreIcon from '@mui/icons-material/Restore';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useRedirect, useTranslate, type RaRecord } from 'react-admin';
import { storedUserMay } from '../../authProvider/index.ts';
import type { RecordActionsProps } from '../override-contract.ts';
import {
  ConfirmDialog,
  MergeAction,
  useActionCall,
  useActionsProvider,
  type ActionSuccess,
} from '../../custom/detail/recordActions.tsx';
import { requestReload } from '../../dataProvider/reload.ts';
import { useShortcuts } from '../../custom/shortcuts/keys.ts';
import TicketQuickActions from './TicketQuickActions.tsx';
import { checklistRefusal } from '../checklist-items/refusal.ts';
import MacroMenu from '../../custom/macros/MacroMenu.tsx';

/** SPEC 3 ticket status internal types. */
const CLOSED = 2;
const ARCHIVED = 3;

/** Known at once, so the buttons show with the detail's own, not a render after them. */
const may = (action: string) => storedUserMay('backoffice', 'tickets', action);

export default function TicketActions(props: RecordActionsProps) {
  const { record } = props;
  const translate = useTranslate();
  const redirect = useRedirect();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const canClose = may('close');
  const canRestore = may('restore');
  const canClone = may('clone');
  const canMerge = may('merge');
  const canApplyMacros = storedUserMay('backoffice', 'macros', 'apply');
  const type = Number((record.status as RaRecord | undefined)?.internal_type);
  const ended = type === CLOSED || type === ARCHIVED;

  const call = (action: string, success: ActionSuccess, after: (result: RaRecord) => unknown) =>
    void run(() => dataProvider.recordAction('tickets', record.id, action), success, after);
  // Open required checklist items refuse a close (issue 37, item 4): the refusal's toast says so, and
  // an operator who may override is asked whether to close anyway.
  const [refusal, setRefusal] = useState<string | null>(null);
  const mayOverride = storedUserMay('backoffice', 'checklist-items', 'override');
  const closeWith = (body?: object) =>
    void run(
      async () => {
        try {
          return await dataProvider.recordAction<RaRecord>('tickets', record.id, 'close', body);
        } catch (error) {
          const refused = checklistRefusal(error, translate);
          if (refused && mayOverride && !body) setRefusal(refused);
          throw error;
        }
      },
      'app.record_actions.ticket_closed',
      requestReload,
    );
  const close = () => closeWith();
  // `c` (issue 18 item 8) is the Close button's twin: there when the button is, and not twice at once.
  useShortcuts({ c: () => close() }, canClose && !ended && !busy);

  return (
    <>
      <TicketQuickActions {...props} />
      {canApplyMacros && <MacroMenu ticketIds={[record.id]} onApplied={requestReload} withShortcut />}
      {canClose && !ended && (
        <Button
          variant="outlined"
          startIcon={<CheckCircleIcon />}
          disabled={busy}
          aria-keyshortcuts="c"
          onClick={close}
        >
          {translate('app.record_actions.close')}
        </Button>
      )}
      <ConfirmDialog
        open={refusal !== null}
        text={translate('resources.checklist-items.panel.override_text', {
          refusal: refusal ?? '',
        })}
        confirmLabel={translate('resources.checklist-items.panel.override_confirm')}
        busy={busy}
        onClose={() => setRefusal(null)}
        onConfirm={() => {
          setRefusal(null);
          closeWith({ override_checklist: true });
        }}
      />
      {canRestore && ended && (
        <Button
          variant="outlined"
          startIcon={<RestoreIcon />}
          disabled={busy}
          onClick={() => call('restore', 'app.record_actions.ticket_restored', requestReload)}
        >
          {translate('app.record_actions.restore')}
        </Button>
      )}
      {canClone && (
        <Button
          variant="outlined"
          startIcon={<ContentCopyIcon />}
          disabled={busy}
          onClick={() =>
            // SPEC 8: a clone is a create, and says so ('Ticket aangemaakt') on the new ticket's page.
            call(
              'clone',
              {
                message: 'app.notifications.created',
                args: { type: translate('resources.tickets.name', { smart_count: 1 }) },
              },
              (clone) => redirect(`/tickets/${clone.id}`),
            )
          }
        >
          {translate('app.record_actions.clone')}
        </Button>
      )}
      {canMerge && (
        <>
          <MergeAction
            resource="tickets"
            record={record}
            title={translate('app.record_actions.merge_tickets_title', { label: record.reference })}
            intro={translate('app.record_actions.merge_tickets_intro')}
            confirmText={({ labels, count }) =>
              translate('app.record_actions.merge_tickets_confirm', {
                merged: labels,
                kept: record.reference,
                smart_count: count,
              })
            }
            success="app.record_actions.tickets_merged"
            // The server refuses tickets of other companies (clients would see each other's messages).
            filter={{ company_id: record.company_id ?? null }}
            describe={(ticket) => `${ticket.reference} · ${ticket.description ?? ''}`}
            // The thread reloads too: the merged tickets' messages are this ticket's now.
            onMerged={requestReload}
          />
        </>
      )}
    </>
  );
}
