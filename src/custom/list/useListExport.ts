import { useState } from 'react';
import { useDataProvider, useLocaleState, useNotify, type Identifier } from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import type { ListScreenController } from './ListScreenController.ts';

/** The list's export (SPEC 2): what the table shows, as a file the server mails; `exporting` meanwhile. */
export function useListExport({
  resource,
  userId,
  list,
  labelOf,
}: {
  resource: Resource;
  userId: Identifier;
  list: ListScreenController;
  labelOf: (field: string) => string;
}) {
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [exporting, setExporting] = useState(false);
  const [locale] = useLocaleState();
  const { settings } = list;

  const exportList = async () => {
    setExporting(true);
    try {
      // The file holds what the table shows: its filter and order, its columns under their headers.
      const message = await dataProvider.exportList(resource.name, {
        userId,
        filter: list.providerFilter,
        sort: { field: settings.sort[0], order: settings.sort[1] },
        columns: settings.columns.map((name) => ({ name, label: labelOf(name) })),
        locale,
      });
      notify(message || 'list.export_started', { type: 'success', messageArgs: { _: message } });
    } catch (error) {
      const message = (error as { message?: string } | null)?.message;
      notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
    } finally {
      setExporting(false);
    }
  };
  return { exporting, exportList };
}
