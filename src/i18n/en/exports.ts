/** The exports page (src/custom/exports) in English: the user's own exports and their files. */
const exportsMessages = {
  exports: {
    title: 'Exports',
    intro: 'The lists you exported. When an export is ready you can download it here as CSV or Excel.',
    empty: 'No exports yet. Use the export button above a list.',
    refresh: 'Refresh',
    caption: 'Your exports, newest first',
    columns: {
      list: 'List',
      requested: 'Requested',
      status: 'Status',
      rows: 'Rows',
      files: 'Download',
    },
    status: {
      queued: 'Waiting',
      running: 'Being written',
      done: 'Ready',
      failed: 'Failed',
    },
    csv: 'CSV',
    xlsx: 'Excel',
    download: 'Download the export of %{list} of %{date} as %{format}',
    download_failed: 'The file could not be downloaded.',
  },
};

export type ExportsMessages = typeof exportsMessages;

export default exportsMessages;
