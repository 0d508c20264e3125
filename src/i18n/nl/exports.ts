import type { ExportsMessages } from '../en/exports.ts';

/** The exports page in Dutch (the default language); complete, typed against the English file. */
const exportsMessages: ExportsMessages = {
  exports: {
    title: 'Exports',
    intro:
      'De lijsten die je hebt geëxporteerd. Zodra een export klaarstaat, download je hem hier als CSV of Excel.',
    empty: 'Nog geen exports. Gebruik de exportknop boven een lijst.',
    refresh: 'Vernieuwen',
    caption: 'Je exports, nieuwste eerst',
    columns: {
      list: 'Lijst',
      requested: 'Aangevraagd',
      status: 'Status',
      rows: 'Regels',
      files: 'Downloaden',
    },
    status: {
      queued: 'Wacht',
      running: 'Wordt geschreven',
      done: 'Klaar',
      failed: 'Mislukt',
    },
    csv: 'CSV',
    xlsx: 'Excel',
    download: 'De export van %{list} van %{date} downloaden als %{format}',
    download_failed: 'Het bestand kon niet worden gedownload.',
  },
};

export default exportsMessages;
