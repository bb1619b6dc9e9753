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
import { flagsOfRecording } from '../../../main/db/repos/data-quality.repo';
import { storeAnalysis } from '../../../main/db/repos/results.repo';
import { looseAnalysisAnswer, type LooseAnswer } from '../../support/loose-answers';
import type { Store } from '../../../main/db/store/types';
import { mustExport, num, openExportStore, readCsv, tempDir, unneutralise } from './helpers';

const POLLED = '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f';
const PER_VERSION = 150;
const tmp = tempDir('vs-loose-');
let store: Store;
const sent = new Map<number, { version: ApiVersion; answer: LooseAnswer }>();

beforeAll(async () => {
  store = await openExportStore(tmp.dir);
  // Ids written out, as the answers name them: the store is fresh, and nothing else inserts rows.
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', 'now')`,
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Loose', 1, 'now')`);
  await store.run(`INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P01', 'now')`);
  await store.run(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'now', '[]', 'running')`,
  );
  const rec = (...values: (string | number)[]) =>
    store.run(
      `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at,
         recorded_at_source, upload_state, recording_id, api_version, result_source, uploaded_at, created_at)
       VALUES (?, 1, 1, 1, ?, 'f', 10, ?, 'manifest', 'uploaded', ?, ?, 'service', ?, 'now')`,
      values,
    );
  const an = (recording: number, type: string) =>
    store.run(
      `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', 'now', 'now')`,
      [recording, type],
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
      await rec(id, `/audio/r${id}.wav`, at, `svc-${id}`, version, at);
      for (const t of analysisTypesFor(version)) await an(id, t);
      const read = readAnalysisAnswer(version, JSON.parse(JSON.stringify(answer.body)), {
        simulatedHeader: false,
        polledRecordingId: POLLED,
      });
      if (!read.ok) throw new Error(`a loose answer was unreadable: ${read.error.detail}`);
      await storeAnalysis(store, at, id, read.value, null);
      sent.set(id, { version, answer });
    }
  }
  // 300 answers stored one by one as polls store them: about 5 s on SQLite, 60-100 s on PGlite.
}, 240_000);
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

describe('loose answers through storage and export', () => {
  it('stores every value of every completed analysis and exactly the flags the answer caused', async () => {
    let flagged = 0;
    for (const [id, { answer }] of sent) {
      const stored = (await flagsOfRecording(store, id)).map((f) => `${f.code}@${f.path}`);
      expect(stored.sort(), `recording ${id}`).toEqual([...answer.expect.flags].sort());
      if (stored.length > 0) flagged++;
      const values = new Map(
        (
          await store.all<{ measure_key: string; value_num: number | null; value_text: string | null }>(
            `SELECT measure_key, value_num, value_text FROM measure_values WHERE recording_id = ?`,
            [id],
          )
        ).map((r) => [r.measure_key, r.value_num ?? r.value_text]),
      );
      const want = new Map<string, number | string>();
      for (const o of answer.expect.outcomes.values())
        if (o.status === 'completed') for (const [k, v] of o.values) want.set(k, v);
      expect([...values.keys()].sort()).toEqual([...want.keys()].sort());
      for (const [k, v] of want)
        expect(values.get(k), `${id} ${k}`).toBe(typeof v === 'number' && Object.is(v, -0) ? 0 : v);
      const unlisted = (
        await store.all<{ name: string }>(
          `SELECT name FROM unlisted_analyses WHERE recording_id = ? ORDER BY name`,
          [id],
        )
      ).map((r) => r.name);
      expect(unlisted).toEqual([...answer.expect.unlisted].sort());
    }
    // The generator breaks most answers somewhere: the check is not vacuous.
    expect(flagged).toBeGreaterThan(sent.size / 2);
  });

  it('exports every value with its flags, a flag summary per wide row, every flag and every unlisted type', async () => {
    const out = join(tmp.dir, 'out');
    (await import('node:fs')).mkdirSync(out);
    await mustExport(store, { forms: ['long', 'wide'] }, { outDir: out, folderName: 'x' });
    const dir = join(out, 'x');
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
      const flags = await flagsOfRecording(store, id);
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
    const pkg = JSON.parse((await import('node:fs')).readFileSync(join(dir, 'datapackage.json'), 'utf8')) as {
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
  }, 60_000);
});
