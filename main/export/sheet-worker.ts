/**
 * The workbook's worker thread (sheets.ts starts it): writes the sheets from the CSVs' bytes, off the
 * export's thread, so the XML of a large workbook is built on the processor's other core while the
 * export goes on with its CSVs. Each message is handled after the one before has been written (zlib and
 * the disk keep up); a failure is reported once and ends the work.
 */
import { parentPort } from 'node:worker_threads';
import { SheetWork, type FromSheets, type ToSheets } from './sheet-work';

const port = parentPort!;
const work = new SheetWork();
let queue = Promise.resolve();

port.on('message', (m: ToSheets) => {
  queue = queue.then(async () => {
    const answer: FromSheets | null = await work.handle(m);
    if (answer !== null) port.postMessage(answer);
  });
});
