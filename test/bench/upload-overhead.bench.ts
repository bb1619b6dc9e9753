/**
 * Client overhead for a 50 MB upload: wall time and peak memory growth of the client process, side by
 * side with a bare node:http upload of the same body to the same sink, as a ratio. Each side runs in
 * its own fresh process (median of `runs`); the sink runs in a third.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectLines, runTs, spawnTs, waitForLine } from '../support/spawn';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);

export const benchUploadOverhead = async (runs = 5): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-bench-'));
  const file = join(dir, 'upload-50mb.bin');
  writeFileSync(file, randomBytes(50_000_000));
  const sink = spawnTs('test/support/sink-server.ts');
  try {
    const lines = collectLines(sink);
    const url = await waitForLine(sink, 'SINK_READY ');
    const client: {
      ms: number;
      rssGrowthBytes: number;
      heapGrowthBytes: number;
      arrayBufferGrowthBytes: number;
      sha256: string;
    }[] = [];
    const raw: { ms: number; rssGrowthBytes: number }[] = [];
    for (let i = 0; i < runs; i++) {
      client.push(
        JSON.parse(await runTs('test/support/upload-memory-probe.ts', [file, url], ['--expose-gc'])),
      );
      raw.push(JSON.parse(await runTs('test/support/raw-upload-baseline.ts', [file, url], ['--expose-gc'])));
    }
    if (!client.every((c) => lines.includes(`RECEIVED ${c.sha256} 50000000`)))
      throw new Error('an upload arrived corrupted');
    const cMs = median(client.map((c) => c.ms));
    const rMs = median(raw.map((r) => r.ms));
    return [
      `upload 50 MB (${runs} runs, medians; loopback sink in its own process)`,
      `  client (ky, streamed Base64 JSON): ${cMs} ms, peak RSS growth ${mb(median(client.map((c) => c.rssGrowthBytes)))} MiB ` +
        `(max ${mb(Math.max(...client.map((c) => c.rssGrowthBytes)))}), live heap +${mb(median(client.map((c) => c.heapGrowthBytes)))} MiB, ` +
        `ArrayBuffers +${mb(median(client.map((c) => c.arrayBufferGrowthBytes)))} MiB`,
      `  bare node:http, same body:          ${rMs} ms, peak RSS growth ${mb(median(raw.map((r) => r.rssGrowthBytes)))} MiB`,
      `  client / bare time ratio: ${(cMs / rMs).toFixed(2)}`,
    ];
  } finally {
    sink.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
};
