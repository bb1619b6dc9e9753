/**
 * In a process of its own (workbook-memory.test.ts): writes `rows` rows of eight text columns into a
 * workbook's sheet, and prints how much the process's peak memory grew meanwhile: the resident set's
 * high-water mark (the kernel's), and the largest sum of V8's heap and the memory outside it (buffers)
 * sampled every 20 ms.
 */
import type { FileDef } from '../../../shared/export';
import { col } from '../../../main/export/column';
import { Workbook } from '../../../main/export/workbook';

const [dir, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg);
const COLUMNS = 8;

const columns = Array.from({ length: COLUMNS }, (_, i) =>
  col<string[]>(`text_${i}`, 'string', `Text ${i}`, 'A text.', (r) => r[i]),
);
const table: FileDef = {
  name: 'big.csv',
  role: 'data',
  title: 'A large table',
  rowIs: 'A row.',
  description: 'A large table.',
  primaryKey: [],
  foreignKeys: [],
  columns,
};

const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const startRss = process.resourceUsage().maxRSS * 1024;
const startUsed = used();
let peakUsed = startUsed;
const sampler = setInterval(() => {
  peakUsed = Math.max(peakUsed, used());
}, 20);
const book = new Workbook(dir!, 'big.xlsx', [table]);
const sheet = book.sheet('big.csv', columns);
for (let r = 0; r < rows; r++) {
  // Every text distinct, as free text is: none of it is shared.
  sheet.row(Array.from({ length: COLUMNS }, (_, i) => `row ${r} column ${i} of the table`));
  if (book.blocked) await book.ready();
}
const file = await book.finish({
  tables: [table],
  settings: [],
  warning: null,
  exportedAt: '2024-01-01T00:00:00.000Z',
});
clearInterval(sampler);
process.stdout.write(
  `RESULT ${JSON.stringify({
    rssGrowthMb: (process.resourceUsage().maxRSS * 1024 - startRss) / 1e6,
    usedGrowthMb: (peakUsed - startUsed) / 1e6,
    bytes: file.bytes,
  })}\n`,
);
