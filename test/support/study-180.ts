/**
 * A study database written by the product at schema 180 (test/fixtures/study-180/), for the tests that a
 * study written then still opens, upgrades with nothing lost and exports the same files.
 *
 * `writeStudy180` builds it as a coordinator would, through the `voicescope` command line against the
 * sandbox: six participants, four weekly visits and a study period, one import with a manifest (a file
 * too short, refused locally), a withdrawal, an exclusion, an exclusion undone, a reassignment, a
 * participant entered twice and merged, a baseline of two sessions and the local measures of every
 * recording. `exportStudy180` is the export both the writer and the tests run: every form and extra, at a
 * fixed time and version, so its files can be compared byte for byte.
 * Run `npx tsx scripts/fixtures/write-study-180.ts` to write the fixture again (it replaces both).
 */
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { runExport } from '../../main/export/run-export';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Db } from '../../main/db/open';
import type { Store } from '../../main/db/store/types';
import type { ExportReport } from '../../shared/export';
import { makeWav } from '../fixtures/audio';

export const STUDY_180 = join(import.meta.dirname, '../fixtures/study-180');
export const STUDY_180_DB = join(STUDY_180, 'voicescope.sqlite');
export const STUDY_180_EXPORT = join(STUDY_180, 'export');
export const STUDY_180_NAME = 'Schema 180 study';

/** The fixed time and version stamped into the compared export. */
const EXPORTED_AT = Date.UTC(2026, 10, 1, 12, 0, 0);
const APP_VERSION = '0.0.0-fixture';

const CODES = ['P01', 'P02', 'P03', 'P04', 'P05', 'P06'] as const;
const WEEKS = 4;
const DAY = 86_400_000;
const START = Date.parse('2026-03-02T00:00:00Z');

export interface Study180File {
  readonly file: string;
  readonly code: string;
  readonly week: number;
  readonly filedCode: string;
  readonly filedSession: string;
  readonly recordedAt: string;
  readonly short: boolean;
}

/** P05 withdrew after week 2; P06's week 3 is too short; P04's week 4 was filed under P03; P02 was entered again as P02B from week 3. */
export const study180Files = (): Study180File[] =>
  CODES.flatMap((code, p) =>
    Array.from({ length: WEEKS }, (_, w) => w + 1)
      .filter((week) => !(code === 'P05' && week > 2))
      .map((week) => ({
        file: `${code}_W0${week}.wav`,
        code,
        week,
        filedCode: code === 'P04' && week === 4 ? 'P03' : code === 'P02' && week >= 3 ? 'P02B' : code,
        filedSession: `W0${week}`,
        recordedAt: new Date(START + (p + 7 * (week - 1)) * DAY + 9 * 3_600_000).toISOString(),
        short: code === 'P06' && week === 3,
      })),
  );

/** The folder of WAVs and its manifest; every file's last samples carry its number, so no two are equal. */
export const writeStudy180Folder = (dir: string): Study180File[] => {
  mkdirSync(dir, { recursive: true });
  const good = [0, 1, 2].map((i) =>
    makeWav({ seconds: 40, speechSeconds: 36 + i, sampleRateHz: 8_000, seed: 1800 + i }),
  );
  const short = makeWav({ seconds: 30, speechSeconds: 12, sampleRateHz: 8_000, seed: 1900 });
  const files = study180Files();
  const rows = ['file,participant,recorded_at,session'];
  files.forEach((f, i) => {
    const bytes = Uint8Array.from(f.short ? short : good[i % good.length]!);
    new DataView(bytes.buffer).setUint32(bytes.length - 4, i + 1, true);
    writeFileSync(join(dir, f.file), bytes);
    rows.push(`${f.file},${f.filedCode},${f.recordedAt},${f.filedSession}`);
  });
  writeFileSync(join(dir, 'manifest.csv'), rows.join('\n') + '\n');
  return files;
};

/** The compared export of the fixture's study: every form and extra, UTC, at a fixed time and version. */
export const exportStudy180 = (db: Db, outDir: string): Promise<ExportReport> =>
  exportStudy180From(sqliteStore(db), outDir);

/** The same export of the fixture's study from any store that holds it (a team database, a copy). */
export const exportStudy180From = async (store: Store, outDir: string): Promise<ExportReport> => {
  const studyId = (await store.get<{ id: number }>(`SELECT id FROM studies WHERE name = ?`, [
    STUDY_180_NAME,
  ]))!.id;
  const r = await runExport(
    { store },
    {
      studyId,
      timeZone: 'UTC',
      forms: ['long', 'wide', 'summary'],
      extras: ['spss', 'stata', 'xlsx'],
    },
    { appVersion: APP_VERSION, now: () => EXPORTED_AT, outDir, folderName: 'export' },
  );
  if (!r.ok) throw new Error(`export failed: ${r.error.code}: ${r.error.message}`);
  return r.value;
};
