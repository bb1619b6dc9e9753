/**
 * A recording's audio for the window: the file to play (the original, or the converted copy that was
 * sent; a decoded WAV copy of either when Chromium does not play its format, main/audio/playback-copy.ts)
 * and where the workstation's speech estimate found speech in it, computed when first asked
 * (the same Silero estimate as the import's 30-second check, main/audio/silero-speech.ts, in a worker
 * thread) and kept in memory while the file is unchanged.
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { MEDIA_TYPES, type MediaSource } from '../../shared/media';
import { err, ok, type Result } from '../../shared/result';
import { openAudioDecoder } from '../audio/decode/index';
import { playbackCopy, playedAsIs } from '../audio/playback-copy';
import { measureSpeechInParallel } from '../audio/speech-pool';
import { recordingFiles, type RecordingFiles } from '../db/repos/recording-files.repo';
import { playbackDirOf } from '../workspace/workspace';
import type { ServiceContext } from './service-context';

export interface RecordingAudioFile {
  readonly path: string;
  readonly contentType: string;
  readonly sizeBytes: number;
}

export interface SpeechRegions {
  /** Stretches counted as speech, seconds from the start, in order. */
  readonly segments: readonly { readonly start: number; readonly end: number }[];
  readonly speechSeconds: number;
  readonly totalSeconds: number;
  /** The channel measured (1-based), or 'mix'; for a multichannel file, the channel with most speech. */
  readonly channel: number | 'mix';
  readonly channels: number;
  readonly method: string;
}

export interface RecordingAudioService {
  /** Where a recording's files are; null when there is no such recording. */
  recordingFiles(recordingId: number): Promise<RecordingFiles | null>;
  /** The file to play for one of a recording's sources; a sentence when there is none. */
  recordingAudio(recordingId: number, which: MediaSource): Promise<Result<RecordingAudioFile, string>>;
  /** Where the speech estimate finds speech in the original file; a sentence when it cannot be made. */
  speechRegions(recordingId: number): Promise<Result<SpeechRegions, string>>;
}

/** How many recordings' speech regions are kept in memory. */
const CACHE_SIZE = 200;

export const recordingAudioService = (ctx: ServiceContext): RecordingAudioService => {
  const { store } = ctx;
  const cache = new Map<string, Promise<Result<SpeechRegions, string>>>();

  const copies = new Map<string, Promise<string>>();

  /**
   * How the window plays a file: as it is when Chromium plays its format (or, for a format no decoder
   * here opens, when its extension is one the window plays), else a decoded WAV copy (playback-copy.ts).
   */
  const playable = async (
    path: string,
    s: { size: number; mtimeMs: number },
    sha256: string,
  ): Promise<Result<RecordingAudioFile, string>> => {
    const opened = await openAudioDecoder(path);
    if (!opened.ok) {
      const contentType = MEDIA_TYPES[extname(path).toLowerCase()];
      return contentType === undefined
        ? err(`This recording cannot be played in the window: ${opened.error.detail}`)
        : ok({ path, contentType, sizeBytes: s.size });
    }
    const asIs = playedAsIs(opened.value.info);
    if (asIs !== null) return ok({ path, contentType: asIs, sizeBytes: s.size });
    const key = `${sha256.slice(0, 32)}-${s.size}-${Math.round(s.mtimeMs)}`;
    let copy = copies.get(key);
    if (copy === undefined) {
      copy = playbackCopy(opened.value, playbackDirOf(ctx.workspace.dir), key).finally(() =>
        copies.delete(key),
      );
      copies.set(key, copy);
    }
    try {
      const copied = await copy;
      return ok({ path: copied, contentType: 'audio/wav', sizeBytes: (await stat(copied)).size });
    } catch (e) {
      const why = (e as { problem?: { detail: string } }).problem?.detail ?? String(e);
      return err(`This recording cannot be played in the window: ${why}`);
    }
  };

  const fileOf = async (
    recordingId: number,
    which: MediaSource,
  ): Promise<Result<RecordingAudioFile, string>> => {
    const f = await recordingFiles(store, recordingId);
    if (!f) return err('There is no such recording.');
    if (which === 'sent' && f.uploadPath === null)
      return err('The original file was sent as it is: there is no converted copy.');
    const path = which === 'sent' ? f.uploadPath! : f.sourcePath;
    const s = await stat(path).catch(() => null);
    if (!s?.isFile())
      return err(
        which === 'sent'
          ? `The converted copy is no longer at ${path}: it was moved or deleted.`
          : `The original file is no longer at ${path}: it was moved, renamed or deleted.`,
      );
    return playable(path, s, f.contentSha256);
  };

  const measure = async (path: string): Promise<Result<SpeechRegions, string>> => {
    const [outcome] = await measureSpeechInParallel([{ path, choice: 'auto' }], { concurrency: 1 });
    if (!outcome?.ok) return err(`The speech estimate failed: ${outcome?.error ?? 'no answer'}.`);
    const v = outcome.value;
    return ok({
      segments: v.sent.segments,
      speechSeconds: v.sent.speechSeconds,
      totalSeconds: v.totalSeconds,
      channel: v.sent.channel,
      channels: v.fileChannels,
      method: v.method,
    });
  };

  return {
    recordingFiles: (recordingId) => recordingFiles(store, recordingId),
    recordingAudio: fileOf,
    async speechRegions(recordingId) {
      const file = await fileOf(recordingId, 'original');
      if (!file.ok) return file;
      const s = await stat(file.value.path);
      const key = `${recordingId}\0${file.value.path}\0${s.size}\0${s.mtimeMs}`;
      let found = cache.get(key);
      if (found === undefined) {
        found = measure(file.value.path).catch((e: unknown) =>
          err(`The speech estimate failed: ${e instanceof Error ? e.message : String(e)}.`),
        );
        cache.set(key, found);
        while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
      } else {
        // Most recently used last.
        cache.delete(key);
        cache.set(key, found);
      }
      return found;
    },
  };
};
