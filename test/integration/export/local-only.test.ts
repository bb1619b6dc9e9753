/**
 * Recordings that never reached the service still appear in exports when they were measured locally
 *: a study with one uploaded recording and one refused locally, both measured on this
 * machine, and one refused recording that was never measured. The export holds local rows for both
 * measured recordings (long `analysis` = `local`, wide `lm_`/`qc_` columns) with the service's columns
 * empty for the refused one; visits.csv still has one row per expected visit, the refused one with its
 * missing-data code and the recording it is about, now present in recordings.csv; load.py and load.R
 * still read the files.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURE_KEYS } from '../../../main/acoustics/measures';
import { runExport } from '../../../main/export/run-export';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { missingReason } from '../../../shared/missing-data';
import type { ImportRequest } from '../../../shared/study';
import { encodeWav, makeSpeechLikeSignal } from '../../fixtures/audio';
import { storeValues } from '../rpc/seed';
import { num, readCsv, tempDir, type ParsedCsv } from './helpers';
import { describeWithTool } from '../../support/reference-tools';

const PYTHON = '/usr/bin/python3';

const tmp = tempDir('vs-local-only-');
let svc: StudyService;
let out: string;
const id: Record<'sent' | 'refused' | 'unmeasured', number> = { sent: 0, refused: 0, unmeasured: 0 };
let long: ParsedCsv, wide: ParsedCsv, recordings: ParsedCsv, visits: ParsedCsv;
let codebook: string;

const wav = (path: string, seed: number) =>
  writeFileSync(
    path,
    encodeWav([makeSpeechLikeSignal({ seconds: 6, speechSeconds: 4, sampleRateHz: 16_000, seed })], {
      sampleRateHz: 16_000,
      format: 'pcm16',
    }),
  );

const importFolder = async (folder: string) => {
  const req: ImportRequest = {
    studyId: 1,
    paths: [folder],
    filenamePattern: '{participant}_{session}.wav',
    timeZone: 'UTC',
    analyses: ['wellbeing'],
    isolateOldestSpeaker: false,
    convert: false,
  };
  const plan = await svc.planImport(req);
  if (!plan.ok) throw new Error(plan.error.message);
  await svc.commitImport(plan.value);
};

const recordingOf = async (participant: string): Promise<number> =>
  (
    (await svc.store.get(
      `SELECT r.id FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE p.code = ?`,
      [participant],
    )) as { id: number }
  ).id;

beforeAll(async () => {
  const first = join(tmp.dir, 'first');
  const later = join(tmp.dir, 'later');
  mkdirSync(first);
  mkdirSync(later);
  wav(join(first, 'P001_s1.wav'), 1);
  wav(join(first, 'P002_s1.wav'), 2);
  wav(join(later, 'P003_s1.wav'), 3);
  svc = await openTestStudyService({ workspaceDir: join(tmp.dir, 'ws') });
  await svc.store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://127.0.0.1:9', 'v1.3', 'x')`,
  );
  await svc.store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'voice', 1, 'x')`);
  await importFolder(first);
  id.sent = await recordingOf('P001');
  id.refused = await recordingOf('P002');
  const report = await svc.measureStudy(1, { threads: 1 });
  if (report.measured !== 2) throw new Error(`measured ${report.measured} of 2`);
  // Imported after the measuring: refused locally and never measured, so nothing to export for it.
  await importFolder(later);
  id.unmeasured = await recordingOf('P003');

  // What the engine and the local check would have stored: P001 sent and analysed, P002 and P003 refused
  // before upload (no analysis row).
  const day = `2026-05-04T10:00:00.000Z`;
  await svc.store.run(`UPDATE recordings SET recorded_at = ?`, [day]);
  await svc.store.run(
    `UPDATE recordings SET upload_state = 'uploaded', recording_id = 'svc-1', api_version = 'v1.3', result_source = 'simulated', uploaded_at = ? WHERE id = ?`,
    [day, id.sent],
  );
  await svc.store.run(
    `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, 'wellbeing', 'processing', 'x')`,
    [id.sent],
  );
  await storeValues(svc.store, id.sent, 'wellbeing', { wb_stress: 'low' });
  const refused = JSON.stringify({
    status: 'refused',
    findings: [
      {
        code: 'speech_too_short',
        severity: 'refuse',
        message: 'Too little speech.',
        action: 'Record again.',
        fixedByConversion: false,
      },
    ],
  });
  await svc.store.run(
    `UPDATE recordings SET upload_state = 'refused_locally', verdict = ? WHERE id IN (?, ?)`,
    [refused, id.refused, id.unmeasured],
  );
  expect(
    await svc.store.get(`SELECT count(*) AS n FROM analyses WHERE recording_id != ?`, [id.sent]),
  ).toEqual({
    n: 0,
  });

  const period = await svc.setStudyPeriod(1, {
    startDate: '2026-05-01',
    endDate: '2026-07-31',
    timeZone: 'UTC',
  });
  if (!period.ok) throw new Error(period.error.message);
  const schedule = await svc.setVisitSchedule(1, [
    { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 2 },
  ]);
  if (!schedule.ok) throw new Error(schedule.error.message);

  out = join(tmp.dir, 'out');
  mkdirSync(out);
  const r = await runExport(
    svc,
    { studyId: 1, timeZone: 'UTC', forms: ['long', 'wide'] },
    { outDir: out, folderName: 'export', appVersion: 'test', now: () => Date.UTC(2026, 5, 1, 12) },
  );
  if (!r.ok) throw new Error(r.error.message);
  const dir = r.value.directory;
  long = readCsv(join(dir, 'measures_long.csv'));
  wide = readCsv(join(dir, 'measures_wide.csv'));
  recordings = readCsv(join(dir, 'recordings.csv'));
  visits = readCsv(join(dir, 'visits.csv'));
  codebook = readFileSync(join(dir, 'codebook.md'), 'utf8');
}, 240_000);

afterAll(async () => {
  await svc.close();
  tmp.cleanup();
});

const rowsOf = (csv: ParsedCsv, recording: number) =>
  csv.records.filter((x) => x['recording'] === String(recording));

describe('a recording measured locally but never sent', () => {
  it('is in the export; a refused recording never measured is not', () => {
    expect(recordings.records.map((x) => Number(x['recording'])).sort()).toEqual(
      [id.sent, id.refused].sort(),
    );
    expect(rowsOf(recordings, id.refused)[0]).toMatchObject({
      upload_state: 'refused_locally',
      api_version: '',
    });
  });

  it('has one long row per local measure, analysis = local, and no service rows', async () => {
    const rows = rowsOf(long, id.refused);
    expect(rows).toHaveLength(MEASURE_KEYS.length);
    expect(new Set(rows.map((x) => x['analysis']))).toEqual(new Set(['local']));
    expect(rows.map((x) => x['measure'])).toEqual([...MEASURE_KEYS]);
    expect(rows.every((x) => x['analysis_state'] === 'completed')).toBe(true);
    const f0 = num(rows.find((x) => x['measure'] === 'f0_mean_hz')!['value'])!;
    expect(f0).toBeCloseTo((await svc.localMeasurement(id.refused))!.measures['f0_mean_hz']!, 6);
  });

  it('keeps the uploaded recording’s service rows beside its local ones', () => {
    const rows = rowsOf(long, id.sent);
    expect(new Set(rows.map((x) => x['analysis']))).toEqual(new Set(['wellbeing', 'local']));
    expect(rows.find((x) => x['measure'] === 'wb_stress')?.['category']).toBe('low');
    expect(rows.filter((x) => x['analysis'] === 'local')).toHaveLength(MEASURE_KEYS.length);
  });

  it('has its wide lm_ and qc_ columns filled and the service columns empty', () => {
    const row = rowsOf(wide, id.refused)[0]!;
    expect(num(row['lm_f0_mean_hz'])).toBeGreaterThan(75);
    expect(row['qc_verdict']).toMatch(/^(good|usable|poor)$/);
    const service = wide.header.filter((h) => h.startsWith('wb_'));
    expect(service.length).toBeGreaterThan(1);
    expect(service.map((h) => row[h])).toEqual(service.map(() => ''));
    expect(rowsOf(wide, id.sent)[0]!['wb_state']).toBe('completed');
  });

  it('carries CPPS as lm_cpps_db, in dB, with its codebook entry and its published sources', () => {
    expect(wide.header).toContain('lm_cpps_db');
    expect(num(rowsOf(wide, id.refused)[0]!['lm_cpps_db'])).toBeGreaterThan(0);
    expect(rowsOf(long, id.refused).filter((x) => x['measure'] === 'cpps_db')).toHaveLength(1);
    expect(codebook).toContain('- `cpps_db` (dB): Smoothed cepstral peak prominence (CPPS), computed here.');
    expect(codebook).toContain('Hillenbrand, J. & Houde, R. A. (1996)');
    expect(codebook).toContain('Maryn, Y. & Weenink, D. (2015)');
  });

  it('keeps visits.csv at one row per expected visit, the refused visit with its code and recording', () => {
    expect(visits.records.map((x) => x['participant']).sort()).toEqual(['P001', 'P002', 'P003']);
    const p1 = visits.records.find((x) => x['participant'] === 'P001')!;
    expect(p1).toMatchObject({ recording: String(id.sent), missing_reason: '' });
    const p2 = visits.records.find((x) => x['participant'] === 'P002')!;
    expect(p2).toMatchObject({
      recording: String(id.refused),
      missing_reason: missingReason('refused_locally').code,
      missing_detail: 'speech_too_short',
    });
    // The recording the reason is about is now in recordings.csv, with its visit.
    expect(rowsOf(recordings, id.refused)[0]).toMatchObject({ visit: 'Baseline' });
  });

  it('is left out when the export selects analyses by state (local measures have none)', async () => {
    const r = await runExport(
      svc,
      { studyId: 1, timeZone: 'UTC', forms: ['long'], states: ['completed'] },
      { outDir: out, folderName: 'by-state', appVersion: 'test', now: () => Date.UTC(2026, 5, 1, 12) },
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.counts.recordings).toBe(1);
  });
});

describeWithTool('pandas', 'load.py', () => {
  it('reads the local rows and lm_ columns as numbers', () => {
    const dir = join(out, 'export');
    writeFileSync(
      join(dir, 'check_local.py'),
      `
import json, load
t = load.load()
lg, wide = t["measures_long"], t["measures_wide"]
local = lg[lg["analysis"] == "local"]
print(json.dumps({"local": len(local), "recordings": sorted(int(x) for x in set(local["recording"])),
  "value": str(local["value"].dtype), "lm": str(wide["lm_f0_mean_hz"].dtype), "wide": len(wide)}))
`,
    );
    const r = spawnSync(PYTHON, ['check_local.py'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      local: 2 * MEASURE_KEYS.length,
      recordings: [id.sent, id.refused].sort((a, b) => a - b),
      value: 'float64',
      lm: 'float64',
      wide: 2,
    });
  });
});

describeWithTool('R', 'load.R', () => {
  it('reads the local rows and lm_ columns as numbers', () => {
    const dir = join(out, 'export');
    writeFileSync(
      join(tmp.dir, 'check_local.R'),
      `
source(file.path(commandArgs(TRUE)[1], "load.R"))
d <- voicescope_load(commandArgs(TRUE)[1])
lg <- d$measures_long
local <- lg[!is.na(lg$analysis) & lg$analysis == "local", ]
cat(nrow(local), class(local$value), class(d$measures_wide$lm_f0_mean_hz), nrow(d$measures_wide), sep = "|")
`,
    );
    const r = spawnSync('Rscript', [join(tmp.dir, 'check_local.R'), dir], { cwd: tmp.dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`${2 * MEASURE_KEYS.length}|numeric|numeric|2`);
    expect(readFileSync(join(dir, 'load.R'), 'utf8')).toContain('measures_long');
  });
});
