/**
 * Turns a previewed import plan into a batch: participants that do not exist yet are added (without a
 * service account: those are created only when the researcher confirms, see engine/accounts.ts), WAV
 * files that need it are converted to a copy in the workspace (the original is never touched), and
 * every assigned file becomes a recording in one transaction. Nothing is sent here.
 *
 * States after commit: refused_locally (never sent), duplicate (not sent unless the researcher insists),
 * pending (its participant has no account yet), queued (ready; sent once the batch is started).
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportPlan, PlannedFile, UploadState } from '../../shared/study';
import { convertWavToMono16k } from '../audio/convert-wav';
import { probeAudio } from '../audio/probe';
import { parseWavHeader } from '../audio/wav';
import type { Db } from '../db/open';
import { appendEvent } from '../db/repos/event-log.repo';
import { judgeAudio } from './local-verdict';

export interface CommitOptions {
  /** Paths of duplicates the researcher insists on uploading anyway. */
  readonly insistOnDuplicates?: readonly string[];
  readonly label?: string;
  readonly convertedDir: string;
  readonly now: () => number;
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

const convert = async (
  file: PlannedFile,
  dir: string,
  isolate: boolean,
): Promise<{ path: string } | { reason: string }> => {
  const bytes = new Uint8Array(await readFile(file.path));
  if (createHash('sha256').update(bytes).digest('hex') !== file.sha256)
    return { reason: 'The file changed after the preview; import it again.' };
  const info = parseWavHeader(bytes);
  if (!info.ok) return { reason: info.error.detail };
  const converted = await convertWavToMono16k(bytes, info.value);
  const probe = await probeAudio(converted.bytes);
  if (!probe.ok) return { reason: probe.error.message };
  const verdict = judgeAudio(probe.value, { isolateOldestSpeaker: isolate, conversion: false });
  if (verdict.status !== 'accepted' && verdict.status !== 'accepted_with_warnings') {
    return {
      reason: `Even converted, the file is refused: ${verdict.findings
        .filter((f) => f.severity === 'refuse')
        .map((f) => f.message)
        .join(' ')}`,
    };
  }
  const out = join(dir, `${file.sha256}-mono16k.wav`);
  await writeFile(out, converted.bytes);
  return { path: out };
};

export const commitImport = async (db: Db, plan: ImportPlan, opts: CommitOptions): Promise<CommitResult> => {
  const req = plan.request;
  const insist = new Set(opts.insistOnDuplicates ?? []);
  const accounts = new Map(
    (
      db.prepare(`SELECT code, account_id FROM participants WHERE study_id = ?`).all(req.studyId) as {
        code: string;
        account_id: string | null;
      }[]
    ).map((p) => [p.code, p.account_id]),
  );
  const conversionFailures: { path: string; reason: string }[] = [];
  const prepared: Prepared[] = [];

  for (const file of plan.files) {
    if (file.action === 'unassigned') continue;
    const needsConversion = file.verdict.status === 'will_convert';
    let state: UploadState;
    let uploadPath: string | null = null;
    let error: string | null = null;
    if (file.action === 'refused') state = 'refused_locally';
    else if (file.action === 'duplicate' && !insist.has(file.path)) state = 'duplicate';
    else {
      state = accounts.get(file.participantCode!) ? 'queued' : 'pending';
      if (needsConversion) {
        const c = await convert(file, opts.convertedDir, req.isolateOldestSpeaker);
        if ('reason' in c) {
          state = 'refused_locally';
          error = JSON.stringify({ reason: c.reason });
          conversionFailures.push({ path: file.path, reason: c.reason });
        } else uploadPath = c.path;
      }
    }
    prepared.push({ file, state, uploadPath, verdict: file.verdict, error });
  }

  const at = new Date(opts.now()).toISOString();
  return db
    .transaction(() => {
      const batchId = Number(
        db
          .prepare(
            `INSERT INTO batches (study_id, created_at, analyses, isolate_oldest_speaker, state, label, convert_wav) VALUES (?, ?, ?, ?, 'open', ?, ?)`,
          )
          .run(
            req.studyId,
            at,
            JSON.stringify(req.analyses),
            req.isolateOldestSpeaker ? 1 : 0,
            opts.label ?? '',
            req.convert ? 1 : 0,
          ).lastInsertRowid,
      );
      const ensureParticipant = db.prepare(
        `INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, ?) ON CONFLICT (study_id, code) DO NOTHING`,
      );
      const participantId = db.prepare(`SELECT id FROM participants WHERE study_id = ? AND code = ?`);
      const insert = db.prepare(
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, upload_path, content_sha256, size_bytes, format, channels,
         sample_rate_hz, duration_seconds, speech_estimate_seconds, converted, recorded_at, recorded_at_source, session_label,
         upload_state, upload_error, verdict, duplicate_of, duplicate_override, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const byState: Partial<Record<UploadState, number>> = {};
      const planIds = new Map<string, number>();
      for (const p of prepared) {
        const f = p.file;
        ensureParticipant.run(req.studyId, f.participantCode, at);
        const pid = (participantId.get(req.studyId, f.participantCode) as { id: number }).id;
        const dupOf = f.duplicateOf
          ? (f.duplicateOf.recordingId ?? planIds.get(f.duplicateOf.path) ?? null)
          : null;
        const id = Number(
          insert.run(
            req.studyId,
            pid,
            batchId,
            f.path,
            p.uploadPath,
            f.sha256,
            f.sizeBytes,
            f.format,
            f.channels,
            f.sampleRateHz,
            f.durationSeconds,
            f.speechSeconds,
            p.uploadPath ? 1 : 0,
            f.recordedAt,
            f.recordedAtSource,
            f.session,
            p.state,
            p.error,
            JSON.stringify(p.verdict),
            dupOf,
            f.action === 'duplicate' && p.state !== 'duplicate' ? 1 : 0,
            at,
          ).lastInsertRowid,
        );
        planIds.set(f.path, id);
        byState[p.state] = (byState[p.state] ?? 0) + 1;
      }
      appendEvent(
        db,
        at,
        'batch_created',
        { studyId: req.studyId },
        { batch_id: batchId, recordings: prepared.length, by_state: byState },
      );
      return { batchId, recordings: prepared.length, byState, conversionFailures };
    })
    .immediate();
};
