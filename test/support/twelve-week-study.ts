/**
 * A simulated 12-week study of 40 participants (Tests): weekly visits W01..W12 (target day
 * 7·(w−1), window ±3 days), with the holes a real study has, written as a folder of WAVs and a manifest
 * dated so that the 12 weeks lie in the past (simulated time: the dates come from the manifest).
 *
 * What the folder holds, and what the curation acts of the tests then do, is listed in `PLAN`; `expectedVisits`
 * computes, independently of the product's rules, what visits.csv must say for each participant and visit
 * once those acts are done. Every recording has audio of its own (a duplicate would be held).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWav } from '../fixtures/audio';

export const WEEKS = 12;
export const PARTICIPANTS = Array.from({ length: 40 }, (_, i) => `P${String(i + 1).padStart(2, '0')}`);
export const visitName = (week: number): string => `W${String(week).padStart(2, '0')}`;
/** `Name:targetDay:before:after` for `voicescope visits set`. */
export const VISIT_ARGS = Array.from({ length: WEEKS }, (_, i) =>
  i === 0 ? `${visitName(1)}:0:0:3` : `${visitName(i + 1)}:${7 * i}:3:3`,
);
export const PERIOD = { from: '2026-06-01', to: '2026-09-30' } as const;

/** The study's holes and the acts the tests do (participants by code, weeks from 1). */
export const PLAN = {
  /** Visits nobody recorded. */
  missed: [
    ['P02', 6],
    ['P03', 11],
    ['P08', 2],
    ['P09', 3],
    ['P20', 9],
    ['P33', 5],
    ['P38', 12],
  ],
  /** Withdrawn after their last recorded week, two days after it, with a reason. */
  withdrawals: [
    { code: 'P05', lastWeek: 4, reason: 'moved away' },
    { code: 'P15', lastWeek: 7, reason: 'too tiring' },
    { code: 'P25', lastWeek: 10, reason: 'lost interest' },
  ],
  /** Files with 12 s of speech in 30 s: refused locally (speech_too_short). */
  tooShort: [
    ['P04', 5],
    ['P18', 8],
    ['P30', 10],
  ],
  /** About 29.7 s of speech by the estimate: borderline locally (held); sent anyway, the sandbox (same estimate) refuses it (SpeechTooShort). */
  borderline: ['P22', 6],
  /** Excluded with a reason. */
  excluded: [
    { code: 'P11', week: 10, reason: 'test recording' },
    { code: 'P27', week: 4, reason: 'loud background noise' },
  ],
  /** Excluded, then the exclusion undone: present again. */
  excludedThenUndone: ['P31', 7],
  /** Filed under the wrong participant or session; each reassigned to where it belongs. */
  misfiled: [
    { code: 'P10', week: 3, filedAs: { code: 'P11', session: 'W03' }, fix: { participant: 'P10' } },
    { code: 'P12', week: 6, filedAs: { code: 'P12', session: 'W05' }, fix: { session: 'W06' } },
    { code: 'P13', week: 8, filedAs: { code: 'P14', session: 'W08' }, fix: { participant: 'P13' } },
  ],
  /** P14 missed W08 (so the misfiled P13 file filled it until reassigned). */
  /** P07 entered twice: weeks 9..12 filed under P07B, merged into P07. */
  duplicate: { code: 'P07', as: 'P07B', fromWeek: 9 },
} as const;

const extraMissed: readonly (readonly [string, number])[] = [['P14', 8]];

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Participant p's baseline day (UTC midnight, ms): staggered over a week from the study's start. */
export const baselineMs = (code: string): number =>
  Date.parse(`${PERIOD.from}T00:00:00Z`) + (Number(code.slice(1)) % 7) * DAY;
/** Week w's day of participant p: the target day, moved up to a day either way (never at the baseline). */
export const visitDayMs = (code: string, week: number): number =>
  baselineMs(code) + (7 * (week - 1) + (week === 1 ? 0 : ((Number(code.slice(1)) + week) % 3) - 1)) * DAY;
export const withdrawalDate = (code: string, lastWeek: number): string =>
  isoDay(visitDayMs(code, lastWeek) + 2 * DAY);

export type FileKind = 'good' | 'short' | 'borderline';
export interface StudyFile {
  readonly file: string;
  /** Where it belongs. */
  readonly code: string;
  readonly week: number;
  /** Where the manifest files it. */
  readonly filedCode: string;
  readonly filedSession: string;
  readonly recordedAt: string;
  readonly kind: FileKind;
}

const has = (list: readonly (readonly [string, number])[], code: string, week: number) =>
  list.some(([c, w]) => c === code && w === week);

/** Every file of the folder, in manifest order. */
export const studyFiles = (): StudyFile[] => {
  const out: StudyFile[] = [];
  for (const code of PARTICIPANTS)
    for (let week = 1; week <= WEEKS; week++) {
      if (has(PLAN.missed, code, week) || has(extraMissed, code, week)) continue;
      const wd = PLAN.withdrawals.find((w) => w.code === code);
      if (wd && week > wd.lastWeek) continue;
      const mis = PLAN.misfiled.find((m) => m.code === code && m.week === week);
      const dup = code === PLAN.duplicate.code && week >= PLAN.duplicate.fromWeek;
      const kind: FileKind = has(PLAN.tooShort, code, week)
        ? 'short'
        : PLAN.borderline[0] === code && PLAN.borderline[1] === week
          ? 'borderline'
          : 'good';
      const filedCode = mis ? mis.filedAs.code : dup ? PLAN.duplicate.as : code;
      const filedSession = mis ? mis.filedAs.session : visitName(week);
      out.push({
        file: `${code}_${visitName(week)}.wav`,
        code,
        week,
        filedCode,
        filedSession,
        recordedAt: new Date(visitDayMs(code, week) + 10 * 3_600_000).toISOString(),
        kind,
      });
    }
  return out;
};

/** A few base signals; each file is a base signal with its own last samples, so every hash differs. */
export const writeStudyFolder = (dir: string): { manifest: string; files: StudyFile[] } => {
  mkdirSync(dir, { recursive: true });
  const base = {
    good: Array.from({ length: 6 }, (_, i) =>
      makeWav({ seconds: 40, speechSeconds: 36 + (i % 3), sampleRateHz: 8_000, seed: 1500 + i }),
    ),
    short: [makeWav({ seconds: 30, speechSeconds: 12, sampleRateHz: 8_000, seed: 1600 })],
    borderline: [makeWav({ seconds: 30, speechSeconds: 24, sampleRateHz: 8_000, seed: 1700 })],
  };
  const files = studyFiles();
  const rows = ['file,participant,recorded_at,session'];
  files.forEach((f, i) => {
    const pool = base[f.kind];
    const bytes = Uint8Array.from(pool[i % pool.length]!);
    // The last four bytes (two 16-bit samples of the trailing silence) carry the file's number.
    new DataView(bytes.buffer).setUint32(bytes.length - 4, i + 1, true);
    writeFileSync(join(dir, f.file), bytes);
    rows.push(`${f.file},${f.filedCode},${f.recordedAt},${f.filedSession}`);
  });
  const manifest = join(dir, 'manifest.csv');
  writeFileSync(manifest, rows.join('\n') + '\n');
  return { manifest, files };
};

export interface ExpectedVisit {
  readonly participant: string;
  readonly visit: string;
  /** The file whose values the row carries, or the file the missing-data code is about. */
  readonly file: string | null;
  readonly code: '' | 'NR' | 'WD' | 'RL' | 'RS' | 'EX' | 'HD';
  readonly detail: string;
}

export interface StudyState {
  /** The curation acts done so far. */
  readonly reassigned: boolean;
  readonly excluded: boolean;
  readonly sentAnyway: boolean;
  readonly withdrawn: boolean;
  readonly merged: boolean;
}

/**
 * What visits.csv must say, row by row, from the plan alone. A visit's row carries the first usable file
 * by date; without one, the code nearest to a result (HD, RS, RL, EX); without any file, WD when the
 * participant withdrew before the window closed, else NR (every window closed long ago).
 */
export const expectedVisits = (s: StudyState): ExpectedVisit[] => {
  const filed = studyFiles().map((f) => {
    const fix = PLAN.misfiled.find((m) => m.code === f.code && m.week === f.week);
    const dup = f.filedCode === PLAN.duplicate.as;
    const code = (s.reassigned && fix) || (s.merged && dup) ? f.code : f.filedCode;
    const session = s.reassigned && fix ? visitName(f.week) : f.filedSession;
    const ex = PLAN.excluded.find((e) => e.code === f.code && e.week === f.week);
    return { ...f, at: code, session, excludedFor: s.excluded && ex ? ex.reason : null };
  });
  const codes = [...PARTICIPANTS, ...(s.merged ? [] : [PLAN.duplicate.as])].sort();
  const rows: ExpectedVisit[] = [];
  for (const participant of codes) {
    const wd = s.withdrawn ? PLAN.withdrawals.find((w) => w.code === participant) : undefined;
    for (let week = 1; week <= WEEKS; week++) {
      const visit = visitName(week);
      const mine = filed
        .filter((f) => f.at === participant && f.session === visit)
        .sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : 1));
      const usable = mine.find((f) => f.kind === 'good' && f.excludedFor === null);
      const pick = (): ExpectedVisit => {
        if (usable) return { participant, visit, file: usable.file, code: '', detail: '' };
        const borderline = mine.find((f) => f.kind === 'borderline');
        if (borderline)
          return s.sentAnyway
            ? { participant, visit, file: borderline.file, code: 'RS', detail: 'SpeechTooShort' }
            : { participant, visit, file: borderline.file, code: 'HD', detail: 'borderline speech estimate' };
        const short = mine.find((f) => f.kind === 'short');
        if (short) return { participant, visit, file: short.file, code: 'RL', detail: 'speech_too_short' };
        const ex = mine.find((f) => f.excludedFor !== null);
        if (ex) return { participant, visit, file: ex.file, code: 'EX', detail: ex.excludedFor! };
        if (wd && week > wd.lastWeek)
          return { participant, visit, file: null, code: 'WD', detail: wd.reason };
        return { participant, visit, file: null, code: 'NR', detail: '' };
      };
      rows.push(pick());
    }
  }
  return rows;
};
