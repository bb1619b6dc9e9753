/**
 * Import planning: what a set of files, folders and an optional manifest would become, decided before
 * anything is written or sent. Each file is read once: hashed (SHA-256), probed, judged against the
 * service's limits, given a participant (manifest, then file-name pattern), a recording time (manifest,
 * file name, the file's embedded date, then its modification time: the researcher sees which) and
 * checked for duplicates of the same audio for the same participant.
 */
import { stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import type {
  ImportPlan,
  ImportRequest,
  PlannedAction,
  PlannedFile,
  RecordedAtSource,
  SeenElsewhere,
  SpeechFigure,
} from '../../shared/study';
import {
  NOT_AUDIO_MESSAGE,
  otherFormatProblem,
  probeAudio,
  wavFacts,
  wavProblem,
  type DecodableProblem,
  type ProbedAudio,
  type ProbeProblem,
} from '../audio/probe';
import type { FileSpeech } from '../audio/file-speech';
import { OTHER_AUDIO_EXTENSIONS } from '../audio/other-formats';
import { sniffContainer } from '../audio/sniff';
import { measureSpeechInParallel, type SpeechOutcome } from '../audio/speech-pool';
import { parseWavHeader } from '../audio/wav';
import { convertedBytes } from '../audio/mono16k-stream';
import { readFileHead } from '../audio/decode/file-blocks';
import { LIMITS } from '../../shared/api/vocabulary';
import { err, ok, type Result } from '../../shared/result';
import { readEmbeddedDate } from '../audio/embedded-date';
import type { Queryable, Store } from '../db/store/types';
import { findRefusedCopy, findSameContent, findSameContentElsewhere } from '../db/repos/duplicates.repo';
import { participantAccounts } from '../db/repos/participants.repo';
import { studyName as studyNameOf } from '../db/repos/studies.repo';
import { compileFilenamePattern, matchFilename, type CompiledPattern } from './filename-pattern';
import { openAudioDecoder } from '../audio/decode';
import { judgeAudio, judgeDecodedFormat, verdictFromProblem, type LocalVerdict } from './local-verdict';
import { parseManifest, type ManifestRow } from './manifest';
import { zonedWallTimeToUtc } from '../wall-time';
import {
  MAX_RECORDING_BYTES,
  ReadRefusedError,
  checkPlace,
  privatePathsOfDbFile,
  readManifestText,
  scanRegularFile,
  walkFiles,
  type ReadContext,
} from './safe-read';

const AUDIO_EXTENSIONS = new Set(['.wav', '.wave', '.mp3', '.m4a', '.mp4', '.ogg', '.oga', '.opus']);

/**
 * Whether a file's name says it is audio: a format the service takes or one the preview names (and the
 * product's decoders may open). Folder walks keep these; the file's bytes, not its name, decide the rest.
 */
export const isAudioFileName = (name: string): boolean => {
  const ext = extname(name).toLowerCase();
  return AUDIO_EXTENSIONS.has(ext) || OTHER_AUDIO_EXTENSIONS.has(ext);
};

/**
 * Files under the given paths, recursively; hidden files (including macOS `._` companions) are left out.
 * Bounded and cancellable (main/import/safe-read.ts); a refusal (a whole drive, a missing path, a
 * system or private place) is thrown as a ReadRefusedError whose message is a sentence.
 */
export const listAudioFiles = async (
  paths: readonly string[],
  o: Partial<ReadContext> & { signal?: AbortSignal; onWalk?: (entriesSeen: number) => void } = {},
): Promise<{ files: string[]; skipped: number; skippedNames: string[] }> => {
  const walked = await walkFiles(paths, {
    privatePaths: o.privatePaths ?? [],
    // Formats the service does not take are kept too, so that the preview names each of them and says what to do.
    keep: isAudioFileName,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onWalk ? { onProgress: o.onWalk } : {}),
  });
  if (!walked.ok) throw new ReadRefusedError(walked.error);
  return walked.value;
};

export interface PlanOptions {
  readonly concurrency?: number;
  readonly onProgress?: (done: number, total: number) => void;
  /** Places never read (default: the folder of the study database, i.e. the workspace). */
  readonly privatePaths?: readonly string[];
  /** Stops the folder walk and the reading of files (the plan then fails with a sentence). */
  readonly signal?: AbortSignal;
  /** Entries looked at while walking folders, before files are read. */
  readonly onWalk?: (entriesSeen: number) => void;
  /** Progress of the second pass, the speech estimate of WAV files (in worker threads). */
  readonly onSpeechProgress?: (done: number, total: number) => void;
  /** False: leave speech unmeasured (benchmarks of the reading pass alone). */
  readonly measureSpeech?: boolean;
}

interface Assignment {
  code: string | null;
  session: string | null;
  recordedAt: string | null;
  source: RecordedAtSource | null;
  problem: string | null;
}

/**
 * Whether the file is converted before upload: every refusal is fixed by conversion and conversion is
 * on, or conversion is on and a WAV file is under 16 kHz (it is resampled, docs/spec-decisions.md).
 */
export const willConvert = (v: LocalVerdict | PlannedFile['verdict'], convert: boolean): boolean =>
  v.status === 'will_convert' ||
  (convert && v.findings.some((f) => f.code === 'sample_rate_below_16k' && f.fixedByConversion));

/** The verdict refuses the file whatever its speech (so its speech need not be measured). */
const isRefusedWithoutSpeech = (
  p: ProbedAudio,
  o: { isolateOldestSpeaker: boolean; conversion: boolean },
): boolean => {
  const v = judgeAudio({ ...p, speechSeconds: LIMITS.minSpeechSeconds * 10 }, o);
  return v.status === 'refused' || v.status === 'needs_conversion';
};

/** First bytes read of every file: enough for any WAV header and the start of an MP4 or MP3. */
const HEAD_BYTES = 1024 * 1024;

interface ReadFacts {
  readonly sizeBytes: number;
  readonly mtimeMs: number;
  readonly sha256: string | null;
  /** The whole file, for compressed files within the service's size limit (their metadata needs it). */
  readonly bytes: Uint8Array | null;
  readonly probe: Result<ProbedAudio, ProbeProblem>;
}

const CONVERTIBLE_PROBLEMS = new Set<ProbeProblem['code']>(['unsupported_format', 'unsupported_encoding']);

/** Refused for its size: over the service's limit, and conversion cannot bring it under (or is off). */
const tooLarge = (size: number, copy: number | null): ProbeProblem => ({
  code: 'too_large',
  message:
    `The file is ${(size / 1e6).toFixed(1)} MB; the service accepts at most 50 MB.` +
    (copy === null ? '' : ` Even converted to mono 16 kHz WAV it would be ${(copy / 1e6).toFixed(1)} MB.`),
});

/**
 * A format the service does not take, opened by the product's decoders: named with what decodes it (so
 * conversion can send it), or its refusal given the reason no decoder reads it. One whose converted copy
 * would itself be over the service's limit is refused for its size at once.
 */
const withDecoder = async (path: string, problem: ProbeProblem): Promise<ProbeProblem> => {
  const opened = await openAudioDecoder(path);
  if (!opened.ok) return { ...problem, message: `${problem.message} ${opened.error.detail}` };
  const { durationSeconds, decoder, channels, sampleRateHz } = opened.value.info;
  const copy = durationSeconds === null ? null : convertedBytes(durationSeconds);
  if (copy !== null && copy > LIMITS.maxAudioBytes) return tooLarge((await stat(path)).size, copy);
  return { ...problem, decodedBy: decoder, decoded: { channels, sampleRateHz, durationSeconds } };
};

/** A compressed multichannel file, named with what decodes it when one of the product's decoders opens it. */
const withDecoderIfAny = async (path: string, probed: ProbedAudio): Promise<ProbedAudio> => {
  const opened = await openAudioDecoder(path);
  return opened.ok ? { ...probed, decodedBy: opened.value.info.decoder } : probed;
};

/**
 * The facts of a compressed file over the service's limit (MP3, MP4, Ogg), from its decoder's headers
 * instead of reading it whole: the verdict then says whether conversion brings it under the limit.
 */
const factsFromDecoder = async (path: string, size: number): Promise<Result<ProbedAudio, ProbeProblem>> => {
  const opened = await openAudioDecoder(path);
  const info = opened.ok ? opened.value.info : null;
  if (info === null || info.durationSeconds === null || info.durationSeconds <= 0)
    return err(tooLarge(size, null));
  const format = sniffContainer((await readFileHead(path, 64)).head);
  return ok({
    format: format ?? 'mp3',
    sizeBytes: size,
    channels: info.channels,
    sampleRateHz: info.sampleRateHz,
    bitRateBps: Math.round((size * 8) / info.durationSeconds),
    durationSeconds: info.durationSeconds,
    speechSeconds: null,
    channelSpeech: null,
    truncated: false,
    wav: null,
    decodedBy: info.decoder,
  });
};

/**
 * Reads what the verdict needs with bounded memory. A WAV file: its header (checked against the real
 * length) and its hash streamed; its speech is measured later, in a worker. A compressed file within
 * the service's size limit: read whole and probed. A file over the limit: with conversion on, hashed
 * (streamed) and judged from its decoder's headers, since its converted copy may be under the limit;
 * otherwise (or when it cannot be converted) refused at once from its first bytes, never read whole
 * (nor hashed).
 */
const readAudioFacts = async (path: string, ctx: ReadContext, req: ImportRequest): Promise<ReadFacts> => {
  let probe: Result<ProbedAudio, ProbeProblem> | null = null;
  const scanned = await scanRegularFile(path, {
    ...ctx,
    headBytes: HEAD_BYTES,
    maxWholeBytes: LIMITS.maxAudioBytes,
    decide: (head, size) => {
      // Every file within the service's limit is hashed (its recording row keeps the hash), and so is
      // every file conversion might bring under it; only the others are judged from their first bytes.
      const small = size <= LIMITS.maxAudioBytes;
      const mayConvert = req.convert && size <= MAX_RECORDING_BYTES;
      if (size === 0) {
        probe = err({ code: 'empty', message: 'The file is empty.' });
        return 'hash';
      }
      const container = sniffContainer(head);
      if (container === 'wav') {
        const parsed = parseWavHeader(head, size);
        if (!parsed.ok) {
          probe = wavProblem(parsed.error);
          return small ? 'hash' : 'head_only';
        }
        const facts = wavFacts(parsed.value, size);
        probe = ok(facts);
        const fixable = mayConvert && convertedBytes(facts.durationSeconds) <= LIMITS.maxAudioBytes;
        return small || fixable ? 'hash' : 'head_only';
      }
      if (container === null) {
        probe = err(otherFormatProblem(head) ?? { code: 'not_audio', message: NOT_AUDIO_MESSAGE });
        return small || (mayConvert && CONVERTIBLE_PROBLEMS.has(probe.error.code)) ? 'hash' : 'head_only';
      }
      if (small) return 'whole';
      if (mayConvert) return 'hash'; // judged from its decoder below
      probe = err(tooLarge(size, null));
      return 'head_only';
    },
  });
  if (!scanned.ok) throw new ReadRefusedError(scanned.error);
  const f = scanned.value;
  if (probe === null && f.bytes) probe = await probeAudio(f.bytes);
  if (probe === null && f.sha256 !== null) probe = await factsFromDecoder(path, f.sizeBytes);
  // A format or a WAV encoding the service does not take (FLAC, ADPCM, µ-law, ...) that a decoder here reads.
  if (probe !== null && !probe.ok && CONVERTIBLE_PROBLEMS.has(probe.error.code))
    probe = err(await withDecoder(path, probe.error));
  if (probe !== null && probe.ok && probe.value.format !== 'wav' && probe.value.channels !== 1)
    probe = ok(await withDecoderIfAny(path, probe.value));
  return {
    sizeBytes: f.sizeBytes,
    mtimeMs: f.mtimeMs,
    sha256: f.sha256,
    bytes: f.bytes,
    probe: probe ?? err({ code: 'unreadable', message: 'The file could not be read.' }),
  };
};

/** Runs `work` over `items` with at most `n` at once, keeping the order of results. */
const pool = async <T, R>(
  items: readonly T[],
  n: number,
  work: (t: T, i: number) => Promise<R>,
): Promise<R[]> => {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!, i);
      }
    }),
  );
  return out;
};

type ManifestError = { line: number; message: string };
type PlanNotes = { readonly notices: string[]; readonly manifestErrors: ManifestError[] };

/** The manifest's rows by file path; its errors and notices go to the plan's. */
const readManifestRows = async (
  req: ImportRequest,
  ctx: ReadContext,
  notes: PlanNotes,
): Promise<Map<string, ManifestRow>> => {
  const byManifest = new Map<string, ManifestRow>();
  if (!req.manifestPath) return byManifest;
  const manifestPath = resolve(req.manifestPath);
  const text = await readManifestText(manifestPath, ctx);
  const parsed = text.ok
    ? parseManifest(text.value, { baseDir: resolve(manifestPath, '..'), timeZone: req.timeZone })
    : text;
  if (!parsed.ok) {
    notes.manifestErrors.push({ line: 0, message: parsed.error.message });
  } else {
    notes.manifestErrors.push(...parsed.value.rowErrors);
    notes.notices.push(...parsed.value.notices);
    for (const row of parsed.value.rows) byManifest.set(row.filePath, row);
  }
  return byManifest;
};

/** The request's file-name pattern, compiled; one that does not compile is left out with a notice. */
const compilePattern = (req: ImportRequest, notes: PlanNotes): CompiledPattern | null => {
  if (!req.filenamePattern) return null;
  const c = compileFilenamePattern(req.filenamePattern, { timeZone: req.timeZone });
  if (c.ok) return c.value;
  notes.notices.push(`The file-name pattern was not used: ${c.error}`);
  return null;
};

/** Every file of the import: the audio files found under the chosen paths and the manifest's files that exist. */
const gatherFiles = async (
  req: ImportRequest,
  opts: PlanOptions,
  ctx: ReadContext,
  byManifest: ReadonlyMap<string, ManifestRow>,
  notes: PlanNotes,
): Promise<string[]> => {
  const listed = await listAudioFiles(req.paths, {
    ...ctx,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onWalk ? { onWalk: opts.onWalk } : {}),
  });
  if (listed.skipped > 0)
    notes.notices.push(
      `${listed.skipped} file${listed.skipped === 1 ? ' was' : 's were'} left out because ${listed.skipped === 1 ? 'it is' : 'they are'} hidden or not audio by extension: ${listed.skippedNames.join(', ')}${listed.skipped > listed.skippedNames.length ? ` and ${listed.skipped - listed.skippedNames.length} more` : ''}.`,
    );
  const manifestFiles: string[] = [];
  for (const [path, row] of byManifest) {
    const place = await checkPlace(path, ctx);
    if (!place.ok && place.error.kind === 'missing')
      notes.manifestErrors.push({
        line: row.line,
        message: `The file ${path} does not exist. Check the path (relative paths are read from the manifest's folder).`,
      });
    else if (!place.ok) notes.manifestErrors.push({ line: row.line, message: place.error.message });
    else if ((await stat(place.value)).isFile()) manifestFiles.push(path);
    else notes.manifestErrors.push({ line: row.line, message: `${path} is not a file.` });
  }
  return [...new Set([...manifestFiles, ...listed.files])].sort();
};

const UNASSIGNED = { code: null, session: null, recordedAt: null, source: null } as const;

/** Who a file belongs to and when it was recorded: from the manifest, else from its name by the pattern. */
const assignerOf =
  (req: ImportRequest, byManifest: ReadonlyMap<string, ManifestRow>, pattern: CompiledPattern | null) =>
  (path: string): Assignment => {
    const row = byManifest.get(path);
    if (row)
      return {
        code: row.participantCode,
        session: row.session,
        recordedAt: row.recordedAt,
        source: row.recordedAt ? 'manifest' : null,
        problem: null,
      };
    if (pattern) {
      const m = matchFilename(pattern, basename(path));
      if (m)
        return {
          code: m.participantCode,
          session: m.session,
          recordedAt: m.recordedAt,
          source: m.recordedAt ? 'filename' : null,
          problem: null,
        };
      return { ...UNASSIGNED, problem: `The file name does not match the pattern ${pattern.pattern}.` };
    }
    return {
      ...UNASSIGNED,
      problem: req.manifestPath
        ? 'The manifest does not list this file, and no file-name pattern is set.'
        : 'No participant: add the file to a manifest or set a file-name pattern.',
    };
  };

/** When the recording was made: as assigned, else the date embedded in the file, else the file's modification time. */
const recordedTimeOf = async (
  a: Assignment,
  read: ReadFacts,
  timeZone: string,
): Promise<{ recordedAt: string; source: RecordedAtSource | null }> => {
  if (a.recordedAt !== null) return { recordedAt: a.recordedAt, source: a.source };
  if (read.probe.ok && read.bytes) {
    const embedded = await readEmbeddedDate(read.bytes, read.probe.value.format);
    const t = embedded ? zonedWallTimeToUtc(embedded.wall, timeZone) : null;
    if (t !== null) return { recordedAt: new Date(t).toISOString(), source: 'embedded' };
  }
  return { recordedAt: new Date(Math.round(read.mtimeMs)).toISOString(), source: 'file_mtime' };
};

/** First pass: every file read (size, hash, format), assigned and given its recording time. */
const readFiles = async (
  allFiles: readonly string[],
  req: ImportRequest,
  opts: PlanOptions,
  ctx: ReadContext,
  assign: (path: string) => Assignment,
) => {
  let done = 0;
  return pool(allFiles, opts.concurrency ?? 2, async (path) => {
    if (opts.signal?.aborted)
      throw new ReadRefusedError({ kind: 'cancelled', message: 'Reading the files was cancelled.' });
    const read = await readAudioFacts(path, ctx, req);
    const a = assign(path);
    const { recordedAt, source } = await recordedTimeOf(a, read, req.timeZone);
    opts.onProgress?.(++done, allFiles.length);
    return {
      path,
      bytes: read.sizeBytes,
      hash: read.sha256,
      probe: read.probe.ok ? read.probe.value : null,
      problem: read.probe.ok ? null : read.probe.error,
      a,
      recordedAt,
      source,
    };
  });
};
type ReadFile = Awaited<ReturnType<typeof readFiles>>[number];
type JudgeOptions = { isolateOldestSpeaker: boolean; conversion: boolean };

/** A format the service does not take that Voicescope decodes (conversion sends it), with its decoder's facts. */
const decodedFormat = (p: ProbeProblem | null): DecodableProblem | null =>
  p !== null && p.decodedBy !== undefined && p.decoded !== undefined && CONVERTIBLE_PROBLEMS.has(p.code)
    ? (p as DecodableProblem)
    : null;

/** Whether the file's speech is worth measuring: its audio may decode, and nothing but its speech could refuse it. */
const speechMatters = (f: ReadFile, judgeOpts: JudgeOptions): boolean =>
  f.a.code !== null &&
  (f.probe ? isRefusedWithoutSpeech(f.probe, judgeOpts) === false : decodedFormat(f.problem) !== null);

/**
 * Second pass: speech, measured in worker threads from the decoded audio, for every file nothing else
 * refuses (WAV, the compressed formats the service takes, and the formats conversion sends), by file
 * index. The same audio (equal content hash, e.g. one file linked under several names) is measured once.
 */
const measureSpeech = async (
  analysed: readonly ReadFile[],
  req: ImportRequest,
  opts: PlanOptions,
  judgeOpts: JudgeOptions,
): Promise<Map<number, SpeechOutcome>> => {
  const chosen = new Map((req.channelByFile ?? []).map((c) => [resolve(c.path), c.channel]));
  const measurable = analysed.flatMap((f, i) =>
    speechMatters(f, judgeOpts)
      ? [
          {
            i,
            job: {
              path: f.path,
              choice: chosen.get(resolve(f.path)) ?? req.channel ?? ('auto' as const),
            },
          },
        ]
      : [],
  );
  const audioKey = (m: (typeof measurable)[number]) => `${analysed[m.i]!.hash}:${m.job.choice}`;
  const audioSeen = new Set<string>();
  const unique = measurable.filter((m) => !audioSeen.has(audioKey(m)) && Boolean(audioSeen.add(audioKey(m))));
  if (opts.measureSpeech === false) return new Map();
  const uniqueSpeech = await measureSpeechInParallel(
    unique.map((m) => m.job),
    {
      ...(opts.onSpeechProgress ? { onProgress: opts.onSpeechProgress } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
  const byKey = new Map(unique.map((m, u) => [audioKey(m), uniqueSpeech[u]]));
  return new Map<number, SpeechOutcome>(measurable.map((m) => [m.i, byKey.get(audioKey(m))!]));
};

const speechFigure = (m: FileSpeech): SpeechFigure => ({
  seconds: m.sent.speechSeconds,
  method: m.method,
  channelSent: m.sent.channel,
});

/** Refused: its decoder opened it but could not decode its audio, so neither the service nor conversion could use it. */
const undecodable = (what: string, m: { error: string }): LocalVerdict =>
  verdictFromProblem({ code: 'unreadable', message: `The ${what} audio cannot be decoded: ${m.error}` });

/** A file with its verdict; `speechSeconds` for a format conversion sends (a WAV's or MP3's is in its probe). */
type JudgedFile = ReadFile & { readonly verdict: LocalVerdict; readonly speechSeconds?: number };

/** Each file's local verdict, with its measured speech where it was measured. */
const judgeFile = (f: ReadFile, m: SpeechOutcome | undefined, judgeOpts: JudgeOptions): JudgedFile => {
  if (!f.probe) {
    const decoded = decodedFormat(f.problem);
    if (decoded === null || m === undefined)
      return { ...f, verdict: verdictFromProblem(f.problem!, judgeOpts) };
    if (!m.ok) return { ...f, verdict: undecodable("file's", m) };
    const speech = speechFigure(m.value);
    return {
      ...f,
      speechSeconds: speech.seconds,
      verdict: judgeDecodedFormat(decoded, speech.seconds, { ...judgeOpts, speech }),
    };
  }
  // A WAV file whose audio does not decode is damaged; a compressed one may hold audio Voicescope
  // cannot decode (AAC), which the service reads: its speech is left to the service.
  if (m && !m.ok && f.probe.wav) return { ...f, verdict: undecodable('WAV', m) };
  const speech = m?.ok ? speechFigure(m.value) : undefined;
  const probe = speech ? { ...f.probe, speechSeconds: speech.seconds } : f.probe;
  return {
    ...f,
    probe,
    verdict: judgeAudio(probe, {
      ...judgeOpts,
      ...(speech ? { speech } : {}),
      ...(m && !m.ok ? { speechNotDecoded: true } : {}),
    }),
  };
};

/** What the preview shows of a file's audio: from its probe, or from its decoder for a format conversion sends. */
const audioFactsOf = (f: JudgedFile) => {
  const decoded = decodedFormat(f.problem)?.decoded;
  return {
    channels: f.probe?.channels ?? decoded?.channels ?? null,
    sampleRateHz: f.probe?.sampleRateHz ?? decoded?.sampleRateHz ?? null,
    durationSeconds: f.probe?.durationSeconds ?? decoded?.durationSeconds ?? null,
    speechSeconds: f.probe?.speechSeconds ?? f.speechSeconds ?? null,
  };
};
type Participants = ReadonlyMap<string, { id: number; accountId: string | null }>;

/** What the plan has met so far, to find the same audio twice within it. */
interface PlanMemory {
  /** participant + hash → first path in this plan */
  readonly seen: Map<string, string>;
  /** hash → first file in this plan */
  readonly seenUnder: Map<string, { code: string; path: string; session: string | null }>;
  readonly studyName: string;
}

/**
 * Where else the same audio was seen: under another participant or in another study (stored), and an
 * earlier file of this import under another participant, unless that participant's stored copy says it already.
 */
const seenElsewhereOf = async (
  q: Queryable,
  req: ImportRequest,
  f: { readonly code: string; readonly path: string; readonly session: string | null },
  hash: string,
  participantId: number | null,
  memory: PlanMemory,
): Promise<SeenElsewhere[]> => {
  const earlier = memory.seenUnder.get(hash);
  const stored = (await findSameContentElsewhere(q, hash, req.studyId, participantId)).map((x) => ({
    recordingId: x.recordingId,
    study: x.study,
    sameStudy: x.studyId === req.studyId,
    participantCode: x.participantCode,
    session: x.session,
    path: x.sourcePath,
  }));
  const inPlan =
    earlier &&
    earlier.code !== f.code &&
    !stored.some((x) => x.sameStudy && x.participantCode === earlier.code)
      ? [
          {
            recordingId: null,
            study: memory.studyName,
            sameStudy: true,
            participantCode: earlier.code,
            session: earlier.session,
            path: earlier.path,
          },
        ]
      : [];
  if (!earlier) memory.seenUnder.set(hash, { code: f.code, path: f.path, session: f.session });
  return [...inPlan, ...stored];
};

/** What the import does with one file, and the copy of it already stored or planned, if any. */
const decideAction = async (
  q: Queryable,
  req: ImportRequest,
  f: JudgedFile,
  p: { id: number } | undefined,
  memory: PlanMemory,
) => {
  let duplicateOf: PlannedFile['duplicateOf'] = null;
  let unstartedBatchId: number | undefined;
  let seenElsewhere: SeenElsewhere[] = [];
  let action: PlannedAction;
  if (f.a.code === null) action = 'unassigned';
  else if (f.verdict.status === 'refused' || f.verdict.status === 'needs_conversion') action = 'refused';
  else if (f.hash === null) action = 'refused';
  else {
    const key = `${f.a.code}\u0000${f.hash}`;
    const existing = p ? (await findSameContent(q, p.id, f.hash))[0] : undefined;
    if (existing) {
      duplicateOf = { recordingId: existing.id, path: existing.sourcePath };
      if (existing.inUnstartedBatch && existing.batchId !== null) unstartedBatchId = existing.batchId;
    } else if (memory.seen.has(key)) duplicateOf = { recordingId: null, path: memory.seen.get(key)! };
    else memory.seen.set(key, f.path);
    seenElsewhere = await seenElsewhereOf(
      q,
      req,
      { code: f.a.code, path: f.path, session: f.a.session },
      f.hash,
      p?.id ?? null,
      memory,
    );
    if (!duplicateOf && seenElsewhere.length > 0)
      duplicateOf = { recordingId: seenElsewhere[0]!.recordingId, path: seenElsewhere[0]!.path };
    action = duplicateOf
      ? 'duplicate'
      : f.verdict.status === 'borderline'
        ? 'borderline'
        : willConvert(f.verdict, req.convert)
          ? 'convert_and_upload'
          : 'upload';
  }
  return { action, duplicateOf, unstartedBatchId, seenElsewhere };
};

/** One file of the plan, with what the import does with it. */
const planFile = async (
  q: Queryable,
  req: ImportRequest,
  f: JudgedFile,
  participants: Participants,
  memory: PlanMemory,
): Promise<PlannedFile> => {
  const p = f.a.code === null ? undefined : participants.get(f.a.code);
  const { action, duplicateOf, unstartedBatchId, seenElsewhere } = await decideAction(q, req, f, p, memory);
  // Refused (or borderline, if left out) before: the same file is not added as another refused row.
  const refusedBefore =
    p && f.hash !== null && (action === 'refused' || action === 'borderline')
      ? await findRefusedCopy(q, p.id, f.hash)
      : null;
  return {
    path: f.path,
    fileName: basename(f.path),
    sizeBytes: f.bytes,
    sha256: f.hash,
    participantCode: f.a.code,
    session: f.a.session,
    recordedAt: f.recordedAt,
    recordedAtSource: f.source,
    format: f.probe?.format ?? null,
    ...audioFactsOf(f),
    verdict: f.verdict,
    duplicateOf,
    ...(unstartedBatchId !== undefined ? { unstartedBatchId } : {}),
    ...(refusedBefore
      ? { alreadyRefused: { recordingId: refusedBefore.id, batchId: refusedBefore.batchId } }
      : {}),
    ...(seenElsewhere.length > 0 ? { seenElsewhere } : {}),
    action,
    assignmentProblem: f.a.problem,
  };
};

const countActions = (files: readonly PlannedFile[]): Record<PlannedAction, number> => {
  const counts = {
    upload: 0,
    convert_and_upload: 0,
    refused: 0,
    borderline: 0,
    duplicate: 0,
    unassigned: 0,
  } satisfies Record<PlannedAction, number>;
  for (const f of files) counts[f.action]++;
  return counts;
};

/** The study database an import reads and writes, and its file, which no import may read (none on a server). */
export interface ImportDb {
  readonly store: Store;
  readonly dbFile?: string;
}

export const planImport = async (
  { store, dbFile }: ImportDb,
  req: ImportRequest,
  opts: PlanOptions = {},
): Promise<ImportPlan> => {
  const notes: PlanNotes = { notices: [], manifestErrors: [] };
  const ctx: ReadContext = {
    privatePaths: opts.privatePaths ?? (dbFile === undefined ? [] : privatePathsOfDbFile(dbFile)),
  };
  const byManifest = await readManifestRows(req, ctx, notes);
  const pattern = compilePattern(req, notes);
  const allFiles = await gatherFiles(req, opts, ctx, byManifest, notes);
  const participants: Participants = new Map(
    (await participantAccounts(store, req.studyId)).map((p) => [
      p.code,
      { id: p.id, accountId: p.account_id },
    ]),
  );
  const analysed = await readFiles(allFiles, req, opts, ctx, assignerOf(req, byManifest, pattern));
  const judgeOpts = { isolateOldestSpeaker: req.isolateOldestSpeaker, conversion: req.convert };
  const measured = await measureSpeech(analysed, req, opts, judgeOpts);
  const judged = analysed.map((f, i) => judgeFile(f, measured.get(i), judgeOpts));
  const memory: PlanMemory = {
    seen: new Map(),
    seenUnder: new Map(),
    studyName: (await studyNameOf(store, req.studyId)) ?? '',
  };
  // One file after another: each file's duplicates are judged against the files planned before it.
  const files: PlannedFile[] = [];
  for (const f of judged) files.push(await planFile(store, req, f, participants, memory));
  const codes = [
    ...new Set(files.filter((f) => f.action !== 'unassigned').map((f) => f.participantCode!)),
  ].sort();
  notes.notices.push(...reimportNotices(files));
  return {
    request: req,
    files,
    manifestErrors: notes.manifestErrors,
    notices: notes.notices,
    newParticipants: codes.filter((c) => !participants.has(c)),
    participantsWithoutAccount: codes.filter((c) => participants.get(c)?.accountId === null),
    counts: countActions(files),
  };
};

/** What a re-import finds: files waiting in batches never started, and files refused before. */
const reimportNotices = (files: readonly PlannedFile[]): string[] => {
  const out: string[] = [];
  const waiting = new Map<number, number>();
  for (const f of files)
    if (f.unstartedBatchId !== undefined)
      waiting.set(f.unstartedBatchId, (waiting.get(f.unstartedBatchId) ?? 0) + 1);
  for (const [batchId, n] of [...waiting].sort((a, b) => a[0] - b[0]))
    out.push(
      `${n === 1 ? '1 file is' : `${n} files are`} already imported in batch ${batchId}, which was never started, and will be sent once it is: start that batch instead of importing ${n === 1 ? 'it' : 'them'} again (the Start button on the batch's page, or voicescope batch resume --batch ${batchId}).`,
    );
  const refused = files.filter((f) => f.alreadyRefused && f.action === 'refused').length;
  if (refused > 0)
    out.push(
      `${refused === 1 ? '1 refused file was' : `${refused} refused files were`} already refused in an earlier import (same audio, same participant): ${refused === 1 ? 'it is' : 'they are'} not added again.`,
    );
  return out;
};
