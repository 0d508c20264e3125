import type { ExportsMessages } from '../en/exports.ts';
import type { DeepPartial } from '../types.ts';

/** The exports page in German; written in full, typed as partial because German falls back to English. */
const exportsMessages: DeepPartial<ExportsMessages> = {
  exports: {
    title: 'Exporte',
    intro:
      'Die Listen, die Sie exportiert haben. Sobald ein Export fertig ist, laden Sie ihn hier als CSV oder Excel herunter.',
    empty: 'Noch keine Exporte. Verwenden Sie die Export-Schaltfläche über einer Liste.',
    refresh: 'Aktualisieren',
    caption: 'Ihre Exporte, neueste zuerst',
    columns: {
      list: 'Liste',
      requested: 'Angefordert',
      status: 'Status',
      rows: 'Zeilen',
      files: 'Herunterladen',
    },
    status: {
      queued: 'Wartet',
      running: 'Wird geschrieben',
      done: 'Fertig',
      failed: 'Fehlgeschlagen',
    },
    csv: 'CSV',
    xlsx: 'Excel',
    download: 'Den Export von %{list} vom %{date} als %{format} herunterladen',
    download_failed: 'Die Datei konnte nicht heruntergeladen werden.',
  },
};

export default exportsMessages;
