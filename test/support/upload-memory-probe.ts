/**
 * Uploads one file through the API client to a sink and reports, as one JSON line on stdout, how much
 * the process's resident memory grew at its peak during the upload, and how long it took.
 * Usage: node --expose-gc --import tsx/esm upload-memory-probe.ts <file> <sinkBaseUrl>
 * rss is the honest total but noisy (allocator high-water marks); heap and ArrayBuffer growth are
 * what the upload itself holds alive.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createApiClient } from '../../main/api/client';
import { fileAudioSource } from '../../main/api/upload-body';

const [file, sinkUrl] = process.argv.slice(2);
if (!file || !sinkUrl) throw new Error('usage: upload-memory-probe <file> <sinkUrl>');

const sha256File = async (path: string) => {
  const h = createHash('sha256');
  for await (const c of createReadStream(path)) h.update(c as Buffer);
  return h.digest('hex');
};

const client = createApiClient({ profile: { baseUrl: sinkUrl, version: 'v1.3', apiKey: 'probe' } });
(globalThis as { gc?: () => void }).gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const maxes = { heapUsed: 0, arrayBuffers: 0 };
const m0 = process.memoryUsage();
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  maxes.heapUsed = Math.max(maxes.heapUsed, m.heapUsed - m0.heapUsed);
  maxes.arrayBuffers = Math.max(maxes.arrayBuffers, m.arrayBuffers - m0.arrayBuffers);
}, 2);
const source = await fileAudioSource(file);
const t0 = performance.now();
const out = await client.upload({
  accountId: '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f',
  recordedAt: '2026-01-01T00:00:00Z',
  analyses: ['wellbeing'],
  audio: source,
});
const ms = performance.now() - t0;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const expected = await sha256File(file); // after the measurement, like the bare baseline, which reads nothing first
process.stdout.write(
  JSON.stringify({
    status: out.status,
    bytes: source.sizeBytes,
    ms: Math.round(ms),
    sha256: expected,
    rssGrowthBytes: peak - base,
    heapGrowthBytes: maxes.heapUsed,
    arrayBufferGrowthBytes: maxes.arrayBuffers,
  }) + '\n',
);
