/**
 * The export reads the local acoustic measures beside the recordings it writes, a block of recordings
 * at a time, never a whole study's at once: a study of 150 recordings (more than two blocks), every
 * seventh one measured, exports each measurement on its own recording's rows and nothing on the others.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveMeasurement } from '../../../main/db/repos/local-measures.repo';
import { seedParticipant, seedRecording, seedStudy } from '../rpc/seed';
import { mustExport, num, openExportStore, readCsv, tempDir, type ParsedCsv } from './helpers';

const tmp = tempDir('vs-local-blocks-');
const measured = new Map<number, number>();
const all: number[] = [];
let wide: ParsedCsv, long: ParsedCsv;

beforeAll(async () => {
  const store = await openExportStore(tmp.dir);
  try {
    const studyId = await seedStudy(store);
    for (const code of ['P01', 'P02', 'P03']) {
      const p = await seedParticipant(store, studyId, code);
      for (let i = 0; i < 50; i++)
        all.push(
          await seedRecording(store, studyId, p, {
            recordedAt: new Date(Date.UTC(2024, 0, 1 + i, 9)).toISOString(),
            analyses: {},
          }),
        );
    }
    for (const [i, id] of all.entries()) {
      if (i % 7 !== 3) continue;
      measured.set(id, 100 + i);
      await saveMeasurement(store, {
        recordingId: id,
        measuredAt: '2024-03-01T00:00:00.000Z',
        engineVersion: 'test',
        settings: '{"pitchFloor":75,"pitchCeiling":500}',
        audioPath: `/a/${id}.wav`,
        problem: null,
        quality: null,
        measures: { f0_mean_hz: 100 + i },
      });
    }
    const report = await mustExport(
      store,
      { forms: ['long', 'wide'] },
      { outDir: tmp.dir, folderName: 'export' },
    );
    wide = readCsv(join(report.directory, 'measures_wide.csv'));
    long = readCsv(join(report.directory, 'measures_long.csv'));
  } finally {
    await store.close();
  }
});

afterAll(() => tmp.cleanup());

describe('the local measures of a study larger than a block', () => {
  it('are on the wide rows of the recordings measured, in every block, and only there', () => {
    // Recordings with no analysis and no local measurement have no wide row.
    expect(new Map(wide.records.map((r) => [Number(r['recording']), num(r['lm_f0_mean_hz'])]))).toEqual(
      measured,
    );
    expect(wide.records).toHaveLength(measured.size);
    expect(Math.max(...measured.keys())).toBeGreaterThan(all[128]!);
  });

  it('are in the long form once per measured recording', () => {
    const local = long.records.filter((r) => r['analysis'] === 'local' && r['measure'] === 'f0_mean_hz');
    expect(new Map(local.map((r) => [Number(r['recording']), num(r['value'])]))).toEqual(measured);
    expect(local).toHaveLength(measured.size);
  });
});
