/**
 * The two files of an export, written row by row to temporary files (a long list never sits in memory
 * whole), then handed to the file store.
 *
 * CSV: the desk's one CSV convention (../csv/format.ts). XLSX: the same values, with amounts, counts,
 * dates, moments and durations as typed cells with a format (./typed-values.ts).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { isProcessRunning } from '../process-alive.ts';
import type { CellValue } from './columns.ts';
import { CSV_BOM, csvLine } from '../csv/format.ts';
import { SHEET_FORMATS } from './typed-values.ts';

async function write(stream: WriteStream, chunk: string): Promise<void> {
  if (stream.destroyed) throw new Error('The export file was closed.');
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** Resolves once the stream has closed its file (it may be open still when destroy() returns). */
function closed(stream: WriteStream): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve()));
}

export interface ExportFileWriter {
  add(texts: string[], cells: CellValue[]): Promise<void>;
  /** Finishes both files; their paths, to be stored and then removed with `discard`. */
  finish(): Promise<{ csv: string; xlsx: string }>;
  discard(): Promise<void>;
}

// The process id in the name tells whose folder it is: one left by a process that died is removed.
const FOLDER_PREFIX = 'sd-export-';
const FOLDER = /^sd-export-(\d+)-[0-9a-f]+$/;

/**
 * Removes the temporary folders of exports whose process died before it could (killed, out of
 * memory); a clean shutdown removes its own. A folder of a process that still runs is left alone.
 */
export async function removeAbandonedExportFolders(): Promise<number> {
  let removed = 0;
  for (const name of await readdir(tmpdir()).catch(() => [])) {
    const pid = FOLDER.exec(name)?.[1];
    if (!pid || isProcessRunning(Number(pid))) continue;
    await rm(join(tmpdir(), name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

export async function openExportFiles(
  headers: string[],
  kinds: string[],
  sheetName: string,
): Promise<ExportFileWriter> {
  // ExcelJS is loaded by the first export, not at start-up: it is a third of a second of every start.
  const { default: ExcelJS } = await import('exceljs');
  const dir = join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const csvPath = join(dir, 'export.csv');
  const xlsxPath = join(dir, 'export.xlsx');
  // Every stream has an error listener from the moment it exists: an export that stops half way
  // (shutdown, a full disk) is a failed or interrupted job, never an unhandled 'error' event. The
  // first error is kept and thrown by the next add or finish.
  let failure: Error | undefined;
  const keep = (error: Error) => (failure ??= error);
  const csv = createWriteStream(csvPath, { mode: 0o600 }).on('error', keep);
  const xlsx = createWriteStream(xlsxPath, { mode: 0o600 }).on('error', keep);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: xlsx,
    useStyles: true,
    useSharedStrings: false,
  });
  // The workbook's zip writer pipes into `xlsx`; exceljs listens to its errors only during commit.
  const zip = (workbook as unknown as { zip: NodeJS.EventEmitter & { abort(): void } }).zip;
  zip.on('error', keep);
  let discarded = false;
  const check = () => {
    if (failure) throw failure;
    if (discarded) throw new Error('The export files were discarded.');
  };
  await write(csv, CSV_BOM + csvLine(headers));

  // Excel refuses sheet names over 31 characters and with []:*?/\ in them.
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Export', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = headers.map((header, i) => ({
    header,
    key: String(i),
    width: Math.min(60, Math.max(10, header.length + 2)),
    style: SHEET_FORMATS[kinds[i]!] ? { numFmt: SHEET_FORMATS[kinds[i]!] } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  return {
    async add(texts, cells) {
      check();
      await write(csv, csvLine(texts));
      // A text cell of a sheet is never run as a formula: the cells keep their values as they are.
      sheet.addRow(cells).commit();
    },
    async finish() {
      check();
      csv.end();
      await once(csv, 'finish');
      sheet.commit();
      await workbook.commit();
      check();
      return { csv: csvPath, xlsx: xlsxPath };
    },
    async discard() {
      if (discarded) return;
      discarded = true;
      zip.abort();
      csv.destroy();
      xlsx.destroy();
      // Removed once no stream holds a file in the folder any more.
      await Promise.all([closed(csv), closed(xlsx)]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
