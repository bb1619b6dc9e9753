/**
 * Loose answers, end to end through storage and export: analysis answers generated
 * from a looser version of the wire schemas (test/support/loose-answers.ts) are read and stored as a
 * poll stores them; every value the generator sent is stored, exactly the flags it caused are stored
 * with it, and the export carries every value with its flags (long form beside the value, wide form per
 * row, data_quality.csv per flag) and every analysis type the specification does not describe.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnalysisAnswer } from '../../../shared/api/read/answers';
import { analysisTypesFor, type ApiVersion } from '../../../shared/api/vocabulary';
import { openStudyDb } from '../../../main/db/open';
import { flagsOfRecording } from '../../../main/db/repos/data-quality.repo';
import { storeAnalysis } from '../../../main/db/repos/results.repo';
import { looseAnalysisAnswer, type LooseAnswer } from '../../support/loose-answers';
import { mustExport, num, readCsv, tempDir, unneutralise } from './helpers';
import { sqliteStore } from '../../../main/db/store/sqlite-store';

const POLLED = '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f';
const PER_VERSION = 150;
const tmp = tempDir('vs-loose-');
const dbPath = join(tmp.dir, 'study.sqlite');
const sent = new Map<number, { version: ApiVersion; answer: LooseAnswer }>();

beforeAll(async () => {
  const { db } = openStudyDb(dbPath);
  const store = sqliteStore(db);
  db.exec(`
    INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', 'now');
    INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Loose', 1, 'now');
    INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P01', 'now');
    INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'now', '[]', 'running');
  `);
  const rec = db.prepare(
    `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at,
       recorded_at_source, upload_state, recording_id, api_version, result_source, uploaded_at, created_at)
     VALUES (?, 1, 1, 1, ?, 'f', 10, ?, 'manifest', 'uploaded', ?, ?, 'service', ?, 'now')`,
  );
  const an = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', 'now', 'now')`,
  );
  let id = 0;
  for (const version of ['v1.3', 'v1.2'] as const) {
    const answers = fc.sample(looseAnalysisAnswer(version, POLLED), {
      numRuns: PER_VERSION,
      seed: version === 'v1.3' ? 1313 : 1212,
    });
    for (const answer of answers) {
      id++;
      const at = new Date(Date.UTC(2025, 0, 1) + id * 60_000).toISOString();
      rec.run(id, `/audio/r${id}.wav`, at, `svc-${id}`, version, at);
      for (const t of analysisTypesFor(version)) an.run(id, t);
      const read = readAnalysisAnswer(version, JSON.parse(JSON.stringify(answer.body)), {
        simulatedHeader: false,
        polledRecordingId: POLLED,
      });
      if (!read.ok) throw new Error(`a loose answer was unreadable: ${read.error.detail}`);
      await storeAnalysis(store, at, id, read.value, null);
      sent.set(id, { version, answer });
    }
  }
  db.close();
});
afterAll(() => tmp.cleanup());

describe('loose answers through storage and export', () => {
  it('stores every value of every completed analysis and exactly the flags the answer caused', async () => {
    const { db } = openStudyDb(dbPath);
    try {
      let flagged = 0;
      for (const [id, { answer }] of sent) {
        const stored = (await flagsOfRecording(sqliteStore(db), id)).map((f) => `${f.code}@${f.path}`);
        expect(stored.sort(), `recording ${id}`).toEqual([...answer.expect.flags].sort());
        if (stored.length > 0) flagged++;
        const values = new Map(
          (
            db
              .prepare(
                `SELECT measure_key, coalesce(value_num, value_text) AS v FROM measure_values WHERE recording_id = ?`,
              )
              .all(id) as { measure_key: string; v: number | string }[]
          ).map((r) => [r.measure_key, r.v]),
        );
        const want = new Map<string, number | string>();
        for (const o of answer.expect.outcomes.values())
          if (o.status === 'completed') for (const [k, v] of o.values) want.set(k, v);
        expect([...values.keys()].sort()).toEqual([...want.keys()].sort());
        for (const [k, v] of want)
          expect(values.get(k), `${id} ${k}`).toBe(typeof v === 'number' && Object.is(v, -0) ? 0 : v);
        const unlisted = (
          db.prepare(`SELECT name FROM unlisted_analyses WHERE recording_id = ? ORDER BY name`).all(id) as {
            name: string;
          }[]
        ).map((r) => r.name);
        expect(unlisted).toEqual([...answer.expect.unlisted].sort());
      }
      // The generator breaks most answers somewhere: the check is not vacuous.
      expect(flagged).toBeGreaterThan(sent.size / 2);
    } finally {
      db.close();
    }
  });

  it('exports every value with its flags, a flag summary per wide row, every flag and every unlisted type', async () => {
    const out = join(tmp.dir, 'out');
    (await import('node:fs')).mkdirSync(out);
    await mustExport(dbPath, { forms: ['long', 'wide'] }, { outDir: out, folderName: 'x' });
    const dir = join(out, 'x');
    const { db } = openStudyDb(dbPath);
    try {
      const long = readCsv(join(dir, 'measures_long.csv')).records;
      const byKey = new Map(long.map((r) => [`${r['recording']}:${r['measure']}`, r]));
      const wide = new Map(
        readCsv(join(dir, 'measures_wide.csv')).records.map((r) => [Number(r['recording']), r]),
      );
      const dq = readCsv(join(dir, 'data_quality.csv')).records;
      const answers = readCsv(join(dir, 'answers_as_received.csv')).records;
      let totalFlags = 0,
        unlistedTotal = 0;
      for (const [id, { answer }] of sent) {
        const flags = await flagsOfRecording(sqliteStore(db), id);
        totalFlags += flags.length;
        expect(Number(wide.get(id)!['flag_count'])).toBe(flags.length);
        for (const o of answer.expect.outcomes.values()) {
          if (o.status !== 'completed') continue;
          for (const [k, v] of o.values) {
            const row = byKey.get(`${id}:${k}`)!;
            expect(row, `${id} ${k}`).toBeDefined();
            if (typeof v === 'number') expect(num(row['value'])).toBe(v === 0 ? 0 : v);
            else expect(unneutralise(row['category']!)).toBe(v);
            const codes = [...new Set(flags.filter((f) => f.measures.includes(k)).map((f) => f.code))].sort();
            expect(row['flags']!.split(' ').filter(Boolean).sort(), `${id} ${k}`).toEqual(codes);
          }
        }
        const unlisted = answers.filter((a) => Number(a['recording']) === id && a['described'] === 'false');
        unlistedTotal += unlisted.length;
        expect(unlisted.map((a) => unneutralise(a['analysis']!)).sort()).toEqual(
          [...answer.expect.unlisted].sort(),
        );
        for (const a of unlisted)
          expect(a['note']).toBe('reported by the service, not described by the specification');
      }
      expect(dq).toHaveLength(totalFlags);
      expect(unlistedTotal).toBeGreaterThan(0);
      const codebook = (await import('node:fs')).readFileSync(join(dir, 'codebook.md'), 'utf8');
      for (const code of new Set(dq.map((r) => r['code']!))) expect(codebook).toContain(`\`${code}\``);
      // No constraint in datapackage.json that a kept, flagged value would violate.
      const pkg = JSON.parse(
        (await import('node:fs')).readFileSync(join(dir, 'datapackage.json'), 'utf8'),
      ) as {
        resources: {
          name: string;
          schema: { fields: { name: string; constraints?: Record<string, unknown> }[] };
        }[];
      };
      const wideFields = pkg.resources.find((r) => r.name === 'measures_wide')!.schema.fields;
      for (const f of wideFields.filter((x) => /^(wb|pd|ad|cc)_/.test(x.name) && !x.name.endsWith('_state')))
        expect(
          f.constraints?.['enum'] ?? f.constraints?.['minimum'] ?? f.constraints?.['maximum'],
          f.name,
        ).toBeUndefined();
    } finally {
      db.close();
    }
  }, 60_000);
});
