/**
 * The baseline for the client's upload overhead: the same Base64 JSON body streamed with bare
 * node:http and no client logic (no validation, no retry policy, no ky). Prints one JSON line.
 * Usage: node --expose-gc --import tsx/esm raw-upload-baseline.ts <file> <sinkBaseUrl>
 */
import { stat } from 'node:fs/promises';
import http from 'node:http';
import { base64Chunks, fileAudioSource } from '../../main/api/upload-body';

const [file, sinkUrl] = process.argv.slice(2);
if (!file || !sinkUrl) throw new Error('usage: raw-upload-baseline <file> <sinkUrl>');
const size = (await stat(file)).size;
const prefix = Buffer.from(
  '{"account_id":"3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f","recorded_at":"2026-01-01T00:00:00Z","analysis":["wellbeing"],"audio":"',
);
const suffix = Buffer.from('"}');
(globalThis as { gc?: () => void }).gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 2);
const t0 = performance.now();
const url = new URL('/v1.3/recordings', sinkUrl);
await new Promise<void>((resolve, reject) => {
  const req = http.request(
    url,
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': prefix.length + 4 * Math.ceil(size / 3) + suffix.length,
      },
    },
    (res) => {
      res.resume();
      res.on('end', resolve);
    },
  );
  req.on('error', reject);
  void (async () => {
    const write = (b: Uint8Array) =>
      new Promise<void>((r) => {
        if (req.write(b)) r();
        else req.once('drain', r);
      });
    await write(prefix);
    for await (const c of base64Chunks((await fileAudioSource(file)).open())) await write(c);
    req.end(suffix);
  })();
});
clearInterval(sampler);
process.stdout.write(
  JSON.stringify({
    bytes: size,
    ms: Math.round(performance.now() - t0),
    rssGrowthBytes: Math.max(peak, process.memoryUsage().rss) - base,
  }) + '\n',
);
