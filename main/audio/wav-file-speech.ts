/**
 * Speech per channel of a WAV file on disk, read a second at a time: the work a speech worker does
 * (main/audio/speech-worker.ts), also callable in-process.
 *
 * Which channels are measured follows the researcher's choice: a mono file its one channel; a
 * multichannel file every channel for "auto" (the channel with most speech is sent), the chosen channel
 * for a channel number, the mix for "mix".
 */
import { open } from 'node:fs/promises';
import { cachedSpeech, readCachedSpeech, speechCacheKey, speechCacheKeyOfFile } from './speech-cache';
import {
  SILERO_METHOD,
  createSileroStream,
  type SileroEstimate,
  type SileroStream,
  type SpeechSegment,
} from './silero-speech';
import { readChannelSamples, readMonoSamples, type WavInfo } from './wav';

export type ChannelChoice = 'auto' | 'mix' | number;

export interface SpeechJob {
  readonly path: string;
  readonly info: WavInfo;
  readonly choice: ChannelChoice;
}

export interface FileSpeech {
  /** Speech per channel (1-based index in `channel`); only the channels measured. */
  readonly channels: readonly { readonly channel: number; readonly speechSeconds: number }[];
  /** Speech in the mix of all channels, when measured. */
  readonly mixSeconds: number | null;
  /** The channel that would be sent (a number, or 'mix') and its speech. */
  readonly sent: {
    readonly channel: number | 'mix';
    readonly speechSeconds: number;
    /** Where the speech is in that channel (what the recording page shades). */
    readonly segments: readonly SpeechSegment[];
  };
  readonly method: string;
}

const CHUNK_SECONDS = 1;

const fileKey = (job: SpeechJob) => speechCacheKeyOfFile(job.path, `file-${job.choice}-${SILERO_METHOD}`);

/** A file's speech: read from the estimates already made (speech-cache.ts) when there is one. */
export const measureWavFileSpeech = async (job: SpeechJob): Promise<FileSpeech> =>
  cachedSpeech(await fileKey(job), () => measureFile(job));

/** The file's speech if it was measured before (speech-cache.ts), without measuring it. */
export const knownWavFileSpeech = async (job: SpeechJob): Promise<FileSpeech | undefined> =>
  readCachedSpeech<FileSpeech>(await fileKey(job));

const measureFile = async (job: SpeechJob): Promise<FileSpeech> => {
  const { info, choice } = job;
  const wanted: (number | 'mix')[] =
    info.channels === 1
      ? [1]
      : choice === 'mix'
        ? ['mix']
        : choice === 'auto'
          ? Array.from({ length: info.channels }, (_, c) => c + 1)
          : [Math.min(info.channels, Math.max(1, choice))];
  const streams = new Map<number | 'mix', SileroStream>();
  for (const w of wanted) streams.set(w, await createSileroStream(info.sampleRateHz));
  const fh = await open(job.path, 'r');
  try {
    const framesPerChunk = Math.max(1, Math.round(info.sampleRateHz * CHUNK_SECONDS));
    const buf = new Uint8Array(framesPerChunk * info.blockAlign);
    for (let from = 0; from < info.frames; from += framesPerChunk) {
      const count = Math.min(framesPerChunk, info.frames - from);
      const { bytesRead } = await fh.read(
        buf,
        0,
        count * info.blockAlign,
        info.dataOffset + from * info.blockAlign,
      );
      const frames = Math.floor(bytesRead / info.blockAlign);
      if (frames === 0) break;
      const chunk = buf.subarray(0, frames * info.blockAlign);
      const view: WavInfo = { ...info, dataOffset: 0, frames, dataBytes: chunk.length };
      for (const [w, s] of streams)
        await s.push(w === 'mix' ? readMonoSamples(chunk, view) : readChannelSamples(chunk, view, w - 1));
    }
  } finally {
    await fh.close();
  }
  const measured: {
    channel: number | 'mix';
    speechSeconds: number;
    segments: readonly SpeechSegment[];
    method: string;
  }[] = [];
  for (const [w, s] of streams) {
    const e = await s.finish();
    measured.push({ channel: w, speechSeconds: e.speechSeconds, segments: e.segments, method: e.method });
  }
  let sent = measured[0]!;
  for (const m of measured) if (m.speechSeconds > sent.speechSeconds + 1e-9) sent = m;
  return {
    channels: measured.flatMap((m) =>
      m.channel === 'mix' ? [] : [{ channel: m.channel, speechSeconds: m.speechSeconds }],
    ),
    mixSeconds: measured.find((m) => m.channel === 'mix')?.speechSeconds ?? null,
    sent: { channel: sent.channel, speechSeconds: sent.speechSeconds, segments: sent.segments },
    method: sent.method,
  };
};

/**
 * The same estimate for one channel of a WAV file already in memory (the sandbox's uploads), fed a
 * second at a time as from a file, so its count is the import's to the frame.
 */
export const measureWavBytesSpeech = async (
  bytes: Uint8Array,
  info: WavInfo,
  channel = 0,
): Promise<SileroEstimate> =>
  cachedSpeech(speechCacheKey(bytes, `bytes-${channel}-${SILERO_METHOD}`), () =>
    measureBytes(bytes, info, channel),
  );

const measureBytes = async (bytes: Uint8Array, info: WavInfo, channel: number): Promise<SileroEstimate> => {
  const stream = await createSileroStream(info.sampleRateHz);
  const framesPerChunk = Math.max(1, Math.round(info.sampleRateHz * CHUNK_SECONDS));
  for (let from = 0; from < info.frames; from += framesPerChunk)
    await stream.push(
      readChannelSamples(bytes, info, channel, from, Math.min(framesPerChunk, info.frames - from)),
    );
  return stream.finish();
};
