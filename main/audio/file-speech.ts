/**
 * Speech per channel of a recording on disk, in any format the decoders open (main/audio/decoded-samples.ts),
 * decoded and measured a chunk at a time: the work a speech worker does (main/audio/speech-worker.ts),
 * also callable in-process.
 *
 * Which channels are measured follows the researcher's choice: a mono file its one channel; a
 * multichannel file every channel for "auto" (the channel with most speech is sent), the chosen channel
 * for a channel number, the mix for "mix".
 */
import { DecodeFailure } from './decode/decoder';
import { openAudioDecoder } from './decode/index';
import { channelStreams, type ChannelPick } from './decoded-samples';
import { cachedSpeech, readCachedSpeech, speechCacheKey, speechCacheKeyOfFile } from './speech-cache';
import {
  SILERO_METHOD,
  createSileroStream,
  type SileroEstimate,
  type SileroStream,
  type SpeechSegment,
} from './silero-speech';
import { readChannelSamples, type WavInfo } from './wav';

export type ChannelChoice = 'auto' | 'mix' | number;

export interface SpeechJob {
  readonly path: string;
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
  /** The decoded audio's length and its channel count. */
  readonly totalSeconds: number;
  readonly fileChannels: number;
}

const CHUNK_SECONDS = 1;

const fileKey = (job: SpeechJob) => speechCacheKeyOfFile(job.path, `decoded-${job.choice}-${SILERO_METHOD}`);

/** A file's speech: read from the estimates already made (speech-cache.ts) when there is one. */
export const measureFileSpeech = async (job: SpeechJob): Promise<FileSpeech> =>
  cachedSpeech(await fileKey(job), () => measureFile(job));

/** The file's speech if it was measured before (speech-cache.ts), without measuring it. */
export const knownFileSpeech = async (job: SpeechJob): Promise<FileSpeech | undefined> =>
  readCachedSpeech<FileSpeech>(await fileKey(job));

const picksFor = (channels: number, choice: ChannelChoice): ChannelPick[] =>
  channels === 1
    ? [1]
    : choice === 'mix'
      ? ['mix']
      : choice === 'auto'
        ? Array.from({ length: channels }, (_, c) => c + 1)
        : [Math.min(channels, Math.max(1, choice))];

const measureFile = async (job: SpeechJob): Promise<FileSpeech> => {
  const opened = await openAudioDecoder(job.path);
  if (!opened.ok) throw new DecodeFailure(opened.error);
  const { info } = opened.value;
  const picks = picksFor(info.channels, job.choice);
  const streams: SileroStream[] = [];
  for (let i = 0; i < picks.length; i++) streams.push(await createSileroStream(info.sampleRateHz));
  let frames = 0;
  for await (const parts of channelStreams(opened.value, picks)) {
    frames += parts[0]!.length;
    for (let i = 0; i < picks.length; i++) await streams[i]!.push(parts[i]!);
  }
  const measured: { channel: ChannelPick; estimate: SileroEstimate }[] = [];
  for (let i = 0; i < picks.length; i++)
    measured.push({ channel: picks[i]!, estimate: await streams[i]!.finish() });
  let sent = measured[0]!;
  for (const m of measured) if (m.estimate.speechSeconds > sent.estimate.speechSeconds + 1e-9) sent = m;
  return {
    channels: measured.flatMap((m) =>
      m.channel === 'mix' ? [] : [{ channel: m.channel, speechSeconds: m.estimate.speechSeconds }],
    ),
    mixSeconds: measured.find((m) => m.channel === 'mix')?.estimate.speechSeconds ?? null,
    sent: {
      channel: sent.channel,
      speechSeconds: sent.estimate.speechSeconds,
      segments: sent.estimate.segments,
    },
    method: sent.estimate.method,
    totalSeconds: frames / info.sampleRateHz,
    fileChannels: info.channels,
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
