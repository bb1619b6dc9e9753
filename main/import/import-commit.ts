/**
 * Turns a previewed import plan into a batch: participants that do not exist yet are added (without a
 * service account: those are created only when the researcher confirms, see engine/accounts.ts), files
 * that need it are converted to a copy in the workspace (WAV by the WAV conversion, other formats through
 * the decoder that reads them; the original is never touched), and
 * every assigned file becomes a recording in one transaction. Nothing is sent here.
 *
 * States after commit: refused_locally (never sent), duplicate (not sent unless the researcher insists),
 * pending (its participant has no account yet), queued (ready; sent once the batch is started).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversionView, ImportPlan, PlannedFile, UploadState } from '../../shared/study';
import {
  convertDecodedToFile,
  conversionRecord,
  sha256OfFile,
  type ConvertedFile,
} from '../audio/convert-decoded';
import { openAudioDecoder } from '../audio/decode';
import { DecodeFailure } from '../audio/decode/decoder';
import { readFileHead } from '../audio/decode/file-blocks';
import { wavFacts } from '../audio/probe';
import { parseWavHeader } from '../audio/wav';
import { measureFileSpeech } from '../audio/file-speech';
import { appendEvent } from '../db/repos/event-log.repo';
import type { Queryable } from '../db/store/types';
import { insertImportBatch } from '../db/repos/imports.repo';
import { participantAccounts } from '../db/repos/participants.repo';
import { recordBatchHoldings } from '../db/repos/workstations.repo';
import type { ChannelChoice } from '../audio/file-speech';
import { willConvert, type ImportDb } from './import-plan';
import { judgeAudio } from './local-verdict';

export interface CommitOptions {
  /** Paths of duplicates the researcher insists on uploading anyway. */
  readonly insistOnDuplicates?: readonly string[];
  /** Borderline files the researcher chose to send (paths), or true for every borderline file of the plan. */
  readonly sendBorderline?: readonly string[] | true;
  readonly label?: string;
  /** The researcher asked to import and start: the start intent is written with the import (one transaction). */
  readonly start?: boolean;
  /** The site new participants are put at (the study's default site when not given). */
  readonly site?: string;
  readonly convertedDir: string;
  readonly now: () => number;
  /** The importing workstation, recorded as holding every file of the batch (only it, or one with the same file, sends them). */
  readonly workstation?: string;
}

export interface CommitResult {
  readonly batchId: number;
  readonly recordings: number;
  readonly byState: Readonly<Partial<Record<UploadState, number>>>;
  readonly conversionFailures: readonly { path: string; reason: string }[];
}

interface Prepared {
  file: PlannedFile;
  state: UploadState;
  uploadPath: string | null;
  verdict: unknown;
  error: string | null;
}

/** The channel the verdict measured and chose (1-based or 'mix'); 'auto' when none was measured. */
const channelSent = (file: PlannedFile): ChannelChoice => file.verdict.speech?.channelSent ?? 'auto';

const convert = async (
  file: PlannedFile,
  dir: string,
  isolate: boolean,
  channel: ChannelChoice,
): Promise<{ path: string; conversion: ConversionView } | { reason: string }> => {
  if ((await sha256OfFile(file.path)) !== file.sha256)
    return { reason: 'The file changed after the preview; import it again.' };
  const suffix = channel === 'mix' ? 'mix' : channel === 'auto' ? 'ch1' : `ch${channel}`;
  const out = join(dir, `${file.sha256}-${suffix}-mono16k.wav`);
  const converted = await convertFile(file.path, channel, out);
  if ('reason' in converted) {
    await rm(out, { force: true });
    return converted;
  }
  const refusal = await refusalOfCopy(file, converted, isolate);
  if (refusal !== null) {
    await rm(out, { force: true });
    return { reason: refusal };
  }
  return { path: out, conversion: conversionRecord(converted) };
};

/**
 * Why the converted copy is still refused (judged as the WAV file it is, from its header), or null when it
 * is not. The speech figure stays the preview's (measured on the channel sent); a file the preview could
 * not measure has its copy's speech measured from the disk.
 */
const refusalOfCopy = async (
  file: PlannedFile,
  copy: ConvertedFile,
  isolate: boolean,
): Promise<string | null> => {
  const { head, size } = await readFileHead(copy.path, 64);
  const info = parseWavHeader(head, size);
  if (!info.ok) return `The converted copy cannot be read back: ${info.error.detail}`;
  const speechSeconds =
    file.speechSeconds ?? (await measureFileSpeech({ path: copy.path, choice: 1 })).sent.speechSeconds;
  const verdict = judgeAudio(
    { ...wavFacts(info.value, size), speechSeconds },
    { isolateOldestSpeaker: isolate, conversion: false },
  );
  if (verdict.status !== 'refused' && verdict.status !== 'needs_conversion') return null;
  const why = verdict.findings.filter((f) => f.severity === 'refuse').map((f) => f.message);
  return `Even converted, the file is refused: ${why.join(' ')}`;
};

/** Any file one of the product's decoders opens (WAV in every encoding included), converted to `out` as it is decoded. */
const convertFile = async (
  path: string,
  channel: ChannelChoice,
  out: string,
): Promise<ConvertedFile | { reason: string }> => {
  const decoder = await openAudioDecoder(path);
  if (!decoder.ok) return { reason: decoder.error.detail };
  try {
    return await convertDecodedToFile(decoder.value, channel, out);
  } catch (e) {
    if (e instanceof DecodeFailure) return { reason: e.problem.detail };
    throw e;
  }
};

export const commitImport = async (
  { store }: ImportDb,
  plan: ImportPlan,
  opts: CommitOptions,
): Promise<CommitResult> => {
  const req = plan.request;
  const insist = new Set(opts.insistOnDuplicates ?? []);
  const accounts = new Map(
    (await participantAccounts(store, req.studyId)).map((p) => [p.code, p.account_id]),
  );
  const conversionFailures: { path: string; reason: string }[] = [];
  const prepared: Prepared[] = [];

  for (const file of plan.files) {
    // Unassigned files are not imported; nor are files refused at once for their size without being read
    // (no hash: the preview listed them with the reason).
    if (file.action === 'unassigned' || file.sha256 === null) continue;
    const needsConversion =
      file.action === 'convert_and_upload' ||
      (file.action === 'borderline' && willConvert(file.verdict, req.convert));
    const sendBorderline = opts.sendBorderline === true || (opts.sendBorderline ?? []).includes(file.path);
    let state: UploadState;
    let uploadPath: string | null = null;
    let error: string | null = null;
    let verdict: unknown = file.verdict;
    if (
      (file.action === 'refused' || (file.action === 'borderline' && !sendBorderline)) &&
      file.alreadyRefused
    )
      continue; // refused before, same audio and participant: its earlier row says so, no second one
    if (file.action === 'refused') state = 'refused_locally';
    else if (file.action === 'borderline' && !sendBorderline) state = 'refused_locally';
    else if (file.action === 'duplicate' && !insist.has(file.path)) state = 'duplicate';
    else {
      state = accounts.get(file.participantCode!) ? 'queued' : 'pending';
      if (needsConversion) {
        const c = await convert(file, opts.convertedDir, req.isolateOldestSpeaker, channelSent(file));
        if ('reason' in c) {
          state = 'refused_locally';
          error = JSON.stringify({ reason: c.reason });
          conversionFailures.push({ path: file.path, reason: c.reason });
        } else {
          uploadPath = c.path;
          verdict = { ...file.verdict, conversion: c.conversion };
        }
      }
    }
    prepared.push({ file, state, uploadPath, verdict, error });
  }

  const at = new Date(opts.now()).toISOString();
  const { batchId, byState } = await store.transaction((tx) => writeBatch(tx, req, at, opts, prepared), {
    repeatable: true,
  });
  return { batchId, recordings: prepared.length, byState, conversionFailures };
};

/** The batch, its recordings and its event, in the caller's transaction. */
const writeBatch = async (
  tx: Queryable,
  req: ImportPlan['request'],
  at: string,
  opts: CommitOptions,
  prepared: readonly Prepared[],
) => {
  const written = await insertImportBatch(
    tx,
    {
      studyId: req.studyId,
      at,
      analyses: JSON.stringify(req.analyses),
      isolateOldestSpeaker: req.isolateOldestSpeaker,
      label: opts.label ?? '',
      convertWav: req.convert,
      siteCode: opts.site,
      startRequested: opts.start === true,
    },
    prepared.map(({ file: f, ...p }) => ({
      participantCode: f.participantCode,
      sourcePath: f.path,
      uploadPath: p.uploadPath,
      sha256: f.sha256,
      sizeBytes: f.sizeBytes,
      format: f.format,
      channels: f.channels,
      sampleRateHz: f.sampleRateHz,
      durationSeconds: f.durationSeconds,
      speechSeconds: f.speechSeconds,
      recordedAt: f.recordedAt,
      recordedAtSource: f.recordedAtSource,
      session: f.session,
      state: p.state,
      error: p.error,
      verdict: JSON.stringify(p.verdict),
      duplicateOf: f.duplicateOf,
      duplicateOverride: f.action === 'duplicate' && p.state !== 'duplicate',
    })),
  );
  if (opts.workstation !== undefined) await recordBatchHoldings(tx, written.batchId, opts.workstation);
  await appendEvent(
    tx,
    at,
    'batch_created',
    { studyId: req.studyId },
    { batch_id: written.batchId, recordings: prepared.length, by_state: written.byState },
  );
  return written;
};
