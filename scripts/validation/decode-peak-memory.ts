/**
 * Decodes one recording through the product's decoders (main/audio/decode/formats.ts) from start to
 * end, keeping nothing but a running count, and prints what streaming decoding costs: the audio's
 * length, the CPU time, the speed against real time and the process's peak resident memory.
 *
 *   npx tsx scripts/validation/decode-peak-memory.ts <file>
 *
 * A long file (for example two hours made with `ffmpeg -stream_loop`) shows that memory stays bounded:
 * the peak does not grow with the recording's length.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { DECODABLE_FORMATS } from '../../main/audio/decode/formats';

const path = process.argv[2];
if (!path) throw new Error('usage: decode-peak-memory.ts <file>');
const fd = openSync(path, 'r');
const head = new Uint8Array(64);
readSync(fd, head, 0, 64, 0);
closeSync(fd);
const format = DECODABLE_FORMATS.find((f) => f.recognise(head));
if (!format) throw new Error(`no decodable format recognises ${path}`);
const opened = await format.open(path, head);
if (!opened.ok) throw new Error(opened.error.detail);
const { info } = opened.value;
const cpuBefore = process.cpuUsage();
let samples = 0;
let peakChunk = 0;
for await (const chunk of opened.value.chunks()) {
  const n = chunk.channels[0]?.length ?? 0;
  samples += n;
  peakChunk = Math.max(peakChunk, n);
}
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const seconds = samples / info.sampleRateHz;
console.log(
  JSON.stringify({
    file: path,
    container: info.container,
    codec: info.codec,
    decoder: info.decoder,
    channels: info.channels,
    audioSeconds: Number(seconds.toFixed(3)),
    largestChunkSamples: peakChunk,
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    timesRealTime: Number((seconds / cpuSeconds).toFixed(1)),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
