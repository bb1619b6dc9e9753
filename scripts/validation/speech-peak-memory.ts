/**
 * Runs the speech estimate (main/audio/file-speech.ts, in this process) over one recording in any
 * decodable format and prints what it cost: the audio's length, the speech found, the CPU time and the
 * process's peak resident memory. A two-hour file (made with `ffmpeg -stream_loop`) shows that the
 * estimate decodes and measures it a chunk at a time: the peak does not grow with the length.
 *
 *   npx tsx scripts/validation/speech-peak-memory.ts <file>
 */
import { measureFileSpeech } from '../../main/audio/file-speech';

const path = process.argv[2];
if (!path) throw new Error('usage: speech-peak-memory.ts <file>');
const cpuBefore = process.cpuUsage();
const speech = await measureFileSpeech({ path, choice: 'auto' });
const cpu = process.cpuUsage(cpuBefore);
console.log(
  JSON.stringify({
    file: path,
    seconds: Math.round(speech.totalSeconds),
    channels: speech.fileChannels,
    speechSeconds: Math.round(speech.sent.speechSeconds),
    cpuSeconds: Math.round((cpu.user + cpu.system) / 1e6),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
