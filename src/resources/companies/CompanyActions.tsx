/**
 * A company's own actions in the back-office detail header (SPEC 7): archive (after confirmation; an
 * archived company is marked instead) and merge other companies into this one. The merged companies are
 * deleted by the server, so the merge's confirmation says that they are merged and then deleted (SPEC 5).
 */
import { useState } from 'react';
import { Button, Chip } from '@mui/material';
import ArchiveIcon from '@mui/icons-material/Archive';
import { useCanAccess, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import {
  ConfirmDialog,
  MergeAction,
  useActionCall,
  useActionsProvider,
} from '../../custom/detail/recordActions.tsx';
import { requestReload } from '../../dataProvider/reload.ts';
import { formatDate } from '../../../common/format.ts';

export default function CompanyActions({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const [confirming, setConfirming] = useState(false);
  const canArchive = useCanAccess({ resource: 'companies', action: 'archive' }).canAccess === true;
  const canMerge = useCanAccess({ resource: 'companies', action: 'merge' }).canAccess === true;
  const archived = Boolean(record.archived_at);

  const archive = () =>
    void run(
      () => dataProvider.recordAction('companies', record.id, 'archive'),
      'app.record_actions.company_archived',
      () => {
        setConfirming(false);
        requestReload();
      },
    );

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
        <>
          <Button variant="outlined" startIcon={<ArchiveIcon />} onClick={() => setConfirming(true)}>
            {translate('app.record_actions.archive')}
          </Button>
          <ConfirmDialog
            open={confirming}
            text={translate('app.record_actions.archive_company_confirm')}
            confirmLabel={translate('app.record_actions.archive')}
            onClose={() => setConfirming(false)}
            onConfirm={archive}
            busy={busy}
          />
        </>
      )}
      {canMerge && (
        <>
          <MergeAction
            resource="companies"
            record={record}
            title={translate('app.record_actions.merge_companies_title', { label: record.name })}
            intro={translate('app.record_actions.merge_companies_intro')}
            // The merged companies are deleted by the server: the confirmation says so, its button red.
            confirmText={({ labels, count }) =>
              translate('app.record_actions.merge_companies_confirm', {
                merged: labels,
                kept: record.name,
                smart_count: count,
              })
            }
            deletes
            success="app.record_actions.companies_merged"
            describe={(company) => [company.name, company.city].filter(Boolean).join(', ')}
            onMerged={requestReload}
          />
        </>
      )}
    </>
  );
}
