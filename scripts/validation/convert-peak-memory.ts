/**
 * Converts one recording as the import does (decoder → channel sent → 16 kHz → 16-bit WAV written to
 * disk, then hashed from the disk) and prints what it cost: the audio's length, the CPU time, the speed
 * against real time and the process's peak resident memory.
 *
 *   npx tsx scripts/validation/convert-peak-memory.ts <file> [out.wav]
 *
 * A long file (for example two hours made with `ffmpeg -stream_loop`) shows that memory stays bounded:
 * the peak does not grow with the recording's length.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertDecodedToFile } from '../../main/audio/convert-decoded';
import { openAudioDecoder } from '../../main/audio/decode';

const path = process.argv[2];
if (!path) throw new Error('usage: convert-peak-memory.ts <file> [out.wav]');
const out = process.argv[3] ?? join(tmpdir(), `vs-convert-peak-${process.pid}.wav`);
const opened = await openAudioDecoder(path);
if (!opened.ok) throw new Error(opened.error.detail);
const cpuBefore = process.cpuUsage();
const copy = await convertDecodedToFile(opened.value, 'auto', out);
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
if (process.argv[3] === undefined) rmSync(out, { force: true });
console.log(
  JSON.stringify({
    file: path,
    decoder: copy.decodedBy.decoder,
    audioSeconds: Number(copy.durationSeconds.toFixed(3)),
    copyBytes: copy.sizeBytes,
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    timesRealTime: Number((copy.durationSeconds / cpuSeconds).toFixed(1)),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
