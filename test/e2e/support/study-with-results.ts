/**
 * A small study with analysed recordings, set up through the contract (as another window of the same
 * host would), for end-to-end tests of the screens that show results: generated speech-like WAVs for a
 * few participants on weekly sessions, a manifest, the built-in sandbox (fast), accounts, a batch
 * started with quick engine settings, and a wait until every analysis has finished.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWav } from '../../fixtures/audio';
import { ok, type Host } from './fixtures';

export interface SeededStudy {
  readonly studyId: number;
  readonly profileId: number;
  readonly batchId: number;
  readonly folder: string;
  readonly codes: readonly string[];
  /** Participant ids by code. */
  readonly participants: ReadonlyMap<string, number>;
}

/** The engine tuned for tests: polls at the specification's 5 s floor, uploads unthrottled. */
export const QUICK_ENGINE_SETTINGS = {
  firstPollSeconds: 5,
  pollIntervalSeconds: 5,
  pollJitterSeconds: 0,
  uploadsPerMinute: 600,
  uploadConcurrency: 4,
  requestsPerSecond: 20,
} as const;

/**
 * A study's first weeks as a researcher sets them up: a schedule of named visits a week apart, each
 * participant recording one session per visit (its label the visit's name, a day apart between
 * participants), and one participant withdrawn after their first visit.
 */
export interface ScheduleSeed {
  readonly visits: readonly string[];
  /** The participant withdrawn (the day after their first visit), with the reason. */
  readonly withdrawn?: string;
}

const weekly = (p: number, s: number) => {
  const d = new Date(Date.UTC(2026, 0, 5 + 7 * s + p, 9, 30));
  return d.toISOString().slice(0, 16).replace('T', ' ');
};

export const must = <T>(
  r: { ok: true; value: T } | { ok: false; error: { message: string } },
  what: string,
): T => {
  if (!r.ok) throw new Error(`${what}: ${r.error.message}`);
  return r.value;
};

export const seedStudyWithResults = async (
  host: Host,
  opts: { name?: string; codes?: readonly string[]; sessions?: number; schedule?: ScheduleSeed } = {},
): Promise<SeededStudy> => {
  const codes = opts.codes ?? ['P-001', 'P-002', 'P-003'];
  const schedule = opts.schedule;
  const sessions = schedule?.visits.length ?? opts.sessions ?? 3;
  const folder = host.incoming;
  mkdirSync(folder, { recursive: true });
  const rows = ['file,participant,recorded_at,session'];
  codes.forEach((code, p) => {
    for (let s = 0; s < sessions; s++) {
      const file = `${code.replace(/[^\w-]/g, '_')}-week${s + 1}.wav`;
      writeFileSync(
        join(folder, file),
        makeWav({ seconds: 42, speechSeconds: 36 + s, seed: 100 + p * 10 + s }),
      );
      rows.push(
        schedule
          ? `${file},${code},${weekly(p, s)},${schedule.visits[s]!}`
          : `${file},${code},2026-0${s + 1}-0${p + 1} 09:30,week ${s + 1}`,
      );
    }
  });
  writeFileSync(join(folder, 'manifest.csv'), rows.join('\n') + '\n');

  const profile = must(await host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }), 'sandbox');
  const study = must(
    await host.rpc('studies.create', { name: opts.name ?? 'Results study', profileId: profile.id }),
    'study',
  );
  must(await host.rpc('settings.save', QUICK_ENGINE_SETTINGS), 'settings');
  const plan = must(
    await host.rpc('imports.preview', {
      studyId: study.id,
      paths: [],
      manifestPath: join(folder, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'],
      isolateOldestSpeaker: false,
      convert: false,
    }),
    'preview',
  );
  if (plan.manifestErrors.length > 0 || plan.totalFiles !== codes.length * sessions)
    throw new Error(`the import preview did not take every file: ${JSON.stringify(plan.manifestErrors)}`);
  const batch = must(
    await host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label: 'Seeded' }),
    'commit',
  );
  must(await host.rpc('participants.createAccounts', { studyId: study.id }), 'accounts');
  must(await host.rpc('batches.start', { batchId: batch.batchId }), 'start');
  const total = codes.length * sessions;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const done = must(
      await host.rpc('recordings.page', {
        studyId: study.id,
        filter: 'completed',
        sort: 'id',
        dir: 'asc',
        offset: 0,
        limit: 1,
      }),
      'poll',
    );
    if (done.total === total) break;
    if (Date.now() > deadline)
      throw new Error(`only ${done.total} of ${total} recordings analysed after 2 minutes`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const list = must(
    await host.rpc('participants.page', {
      studyId: study.id,
      sort: 'code',
      dir: 'asc',
      offset: 0,
      limit: 100,
    }),
    'participants',
  );
  const participants = new Map(list.rows.map((r) => [r.code, r.id]));
  if (schedule) {
    must(
      await host.rpc('visits.setSchedule', {
        studyId: study.id,
        visits: schedule.visits.map((name, i) => ({
          name,
          targetDay: 7 * i,
          windowBefore: i === 0 ? 0 : 2,
          windowAfter: 2,
        })),
      }),
      'schedule',
    );
    if (schedule.withdrawn) {
      const p = codes.indexOf(schedule.withdrawn);
      must(
        await host.rpc('visits.setStatus', {
          participantId: participants.get(schedule.withdrawn)!,
          status: 'withdrawn',
          on: weekly(p, 1).slice(0, 10),
          reason: 'Moved away',
        }),
        'withdrawal',
      );
    }
  }
  return { studyId: study.id, profileId: profile.id, batchId: batch.batchId, folder, codes, participants };
};

/** The id of a study's first recording (lowest id), for opening its page. */
export const firstRecordingId = async (host: Host, studyId: number): Promise<number> =>
  (await ok(host.rpc('recordings.page', { studyId, sort: 'id', dir: 'asc', offset: 0, limit: 1 }))).rows[0]!
    .id;
