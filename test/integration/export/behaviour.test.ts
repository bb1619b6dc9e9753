/**
 * How an export behaves: the same selection gives the same bytes, the Excel preset alone has a BOM,
 * the filters select what they say, the link file appears only when asked for, progress is reported,
 * and every refusal (unknown study, nothing selected, folder taken or unwritable, full disk,
 * cancellation) is a clear problem that leaves nothing behind.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportProgress } from '../../../shared/export';
import { openStudyDb } from '../../../main/db/open';
import { runExport } from '../../../main/export/run-export';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import type { Store } from '../../../main/db/store/types';
import { testEngine } from '../../support/test-engine';
import { seedAwkwardStudy, type SeededRecording } from './awkward-study';
import { exportStudy, mustExport, openExportStore, readCsv, tempDir, unneutralise } from './helpers';

const tmp = tempDir();
let store: Store;
let seeded: SeededRecording[];
beforeAll(async () => {
  store = await openExportStore(tmp.dir);
  seeded = (await seedAwkwardStudy(store)).recordings;
});
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

const out = (name: string) => join(tmp.dir, name);
const files = (name: string) => readdirSync(out(name)).sort();
const bytes = (name: string, file: string) => readFileSync(join(out(name), file));
const leftovers = () => readdirSync(tmp.dir).filter((f) => f.includes('.partial-'));

describe('determinism', () => {
  it('exports the same selection twice into byte-identical CSV files; with the same clock, every file is identical', async () => {
    await mustExport(store, {}, { outDir: tmp.dir, folderName: 'a' });
    await mustExport(store, {}, { outDir: tmp.dir, folderName: 'b' });
    await mustExport(store, {}, { outDir: tmp.dir, folderName: 'c', now: () => Date.UTC(2030, 0, 1) });
    expect(files('a')).toEqual(files('b'));
    for (const f of files('a')) expect(bytes('b', f).equals(bytes('a', f)), f).toBe(true);
    for (const f of files('a').filter((x) => x.endsWith('.csv') || x.startsWith('load.')))
      expect(bytes('c', f).equals(bytes('a', f)), f).toBe(true);
    // Only the export time differs in the descriptions.
    const strip = (s: string) =>
      s.replace(/2024-06-01T12:00:00.000Z|2030-01-01T00:00:00.000Z/g, 'T').replace(/[0-9a-f]{64}/g, 'H');
    expect(strip(bytes('c', 'codebook.md').toString())).toBe(strip(bytes('a', 'codebook.md').toString()));
  });

  it('does not depend on the order in which the request lists things', async () => {
    await mustExport(
      store,
      { analyses: ['parkinsons', 'wellbeing'], forms: ['wide', 'long'] },
      { outDir: tmp.dir, folderName: 'order1' },
    );
    await mustExport(
      store,
      { analyses: ['wellbeing', 'parkinsons', 'wellbeing'], forms: ['long', 'wide', 'long'] },
      { outDir: tmp.dir, folderName: 'order2' },
    );
    for (const f of files('order1')) expect(bytes('order2', f).equals(bytes('order1', f)), f).toBe(true);
  });
});

describe('conventions', () => {
  it('writes UTF-8 without a BOM by default and with one in the Excel preset, CRLF line ends in both', async () => {
    await mustExport(store, { preset: 'excel' }, { outDir: tmp.dir, folderName: 'excel' });
    for (const f of files('a').filter((x) => x.endsWith('.csv'))) {
      expect(
        bytes('a', f)
          .subarray(0, 3)
          .equals(Buffer.from([0xef, 0xbb, 0xbf])),
        `standard ${f}`,
      ).toBe(false);
      expect(
        bytes('excel', f)
          .subarray(0, 3)
          .equals(Buffer.from([0xef, 0xbb, 0xbf])),
        `excel ${f}`,
      ).toBe(true);
      const text = bytes('a', f).toString('utf8');
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.split('\r\n')[0]).not.toContain('\n');
    }
    for (const f of ['codebook.md', 'datapackage.json', 'load.R', 'load.py'])
      expect(bytes('excel', f)[0]).not.toBe(0xef);
  });

  it('quotes text with leading or trailing spaces so no reader trims it', () => {
    expect(bytes('a', 'recordings.csv').toString()).toContain('," padded ",');
  });

  it('writes participant_accounts.csv only when asked, and the account ids nowhere else', async () => {
    expect(files('a')).not.toContain('participant_accounts.csv');
    await mustExport(store, { includeLinkFile: true }, { outDir: tmp.dir, folderName: 'link' });
    const link = readCsv(join(out('link'), 'participant_accounts.csv'));
    expect(link.header).toEqual([
      'participant',
      'account_id',
      'account_created_at_utc',
      'account_created_at_local',
    ]);
    expect(link.rows).toHaveLength(13);
    expect(link.records.every((r) => /^acc0000-/.test(r['account_id']!))).toBe(true);
    for (const f of files('link').filter(
      (x) =>
        x !== 'participant_accounts.csv' &&
        x !== 'SHA256SUMS' &&
        x !== 'codebook.md' &&
        x !== 'datapackage.json',
    )) {
      expect(bytes('link', f).toString(), f).not.toContain('acc0000-');
    }
  });
});

describe('selection', () => {
  const longOf = async (name: string, request: Parameters<typeof mustExport>[1]) => {
    await mustExport(store, { forms: ['long'], ...request }, { outDir: tmp.dir, folderName: name });
    return readCsv(join(out(name), 'measures_long.csv')).records;
  };

  it('by participant code, exactly (commas, quotes, formulas); a code with a line break cannot be asked for (no control characters in requests)', async () => {
    const rows = await longOf('sel-p', {
      participants: ['P,01', '=HYPERLINK("http://x","click")'],
    });
    expect(new Set(rows.map((r) => unneutralise(r['participant']!)))).toEqual(
      new Set(['P,01', '=HYPERLINK("http://x","click")']),
    );
    await expect(longOf('sel-p2', { participants: ['two\nlines'] })).rejects.toThrow(/control characters/);
  });

  it("by date range: calendar days in the export's time zone, both ends included", async () => {
    const rows = await longOf('sel-d', { from: '2024-04-01', to: '2024-04-01' });
    const expected = seeded.filter(
      (r) =>
        Object.keys(r.states).length &&
        new Date(Date.parse(r.recordedAt) + 2 * 3_600_000).toISOString().startsWith('2024-04-01'),
    );
    expect(new Set(rows.map((r) => Number(r['recording'])))).toEqual(new Set(expected.map((r) => r.id)));
    expect(expected.length).toBeGreaterThan(0);
  });

  it('by session, with "" for recordings without one', async () => {
    const rows = await longOf('sel-s', { sessions: ['week, 4', ''] });
    expect(new Set(rows.map((r) => r['session']))).toEqual(new Set(['week, 4', '']));
  });

  it('by analysis type and state: only those pairs, and only recordings that have one', async () => {
    const rows = await longOf('sel-t', { analyses: ['alzheimers'], states: ['error', 'timed_out'] });
    expect(new Set(rows.map((r) => r['analysis']))).toEqual(new Set(['alzheimers']));
    expect(new Set(rows.map((r) => r['analysis_state'])).size).toBeGreaterThan(0);
    expect(
      rows.every(
        (r) =>
          ['error', 'timed_out'].includes(r['analysis_state']!) && r['value'] === '' && r['category'] === '',
      ),
    ).toBe(true);
    const expected = seeded.filter(
      (r) => r.states.alzheimers === 'error' || r.states.alzheimers === 'timed_out',
    );
    expect(new Set(rows.map((r) => Number(r['recording'])))).toEqual(new Set(expected.map((r) => r.id)));
  });

  it("the wide form's columns depend on the request, never on the data", async () => {
    await mustExport(
      store,
      { forms: ['wide'], analyses: ['wellbeing'], participants: ['NA'] },
      { outDir: tmp.dir, folderName: 'w1' },
    );
    await mustExport(
      store,
      { forms: ['wide'], analyses: ['wellbeing'], states: ['error'] },
      { outDir: tmp.dir, folderName: 'w2' },
    );
    const h1 = readCsv(join(out('w1'), 'measures_wide.csv')).header;
    expect(readCsv(join(out('w2'), 'measures_wide.csv')).header).toEqual(h1);
    expect(h1.slice(-4)).toEqual(['wb_state', 'wb_stress', 'wb_anxiety', 'wb_depression']);
  });
});

describe('progress and refusals', () => {
  it('reports progress from preparing to done, with the recordings counted', async () => {
    const seen: ExportProgress[] = [];
    const r = await mustExport(
      store,
      {},
      { outDir: tmp.dir, folderName: 'progress', onProgress: (p) => seen.push(p), progressIntervalMs: 0 },
    );
    expect(seen[0]!.stage).toBe('preparing');
    expect(seen.at(-1)).toMatchObject({
      stage: 'done',
      recordingsDone: r.counts.recordings,
      recordingsTotal: r.counts.recordings,
    });
    expect(seen.map((p) => p.stage)).toContain('describing');
  });

  it('refuses an unknown study, an empty selection and an invalid request, writing nothing', async () => {
    const unknown = await exportStudy(store, { studyId: 99 }, { outDir: tmp.dir });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_study' } });
    const empty = await exportStudy(store, { participants: ['nobody'] }, { outDir: tmp.dir });
    expect(empty).toMatchObject({ ok: false, error: { code: 'empty_selection' } });
    if (!empty.ok) expect(empty.error.message).toContain('nobody');
    const none = await exportStudy(store, { participants: ['no-recordings'] }, { outDir: tmp.dir });
    expect(none).toMatchObject({ ok: false, error: { code: 'empty_selection' } });
    const bad = await exportStudy(store, { timeZone: 'Mars/Olympus', forms: [] }, { outDir: tmp.dir });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    if (!bad.ok) expect(bad.error.message).toMatch(/timeZone/);
    const reversed = await exportStudy(store, { from: '2024-05-01', to: '2024-04-01' }, { outDir: tmp.dir });
    expect(reversed).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(leftovers()).toEqual([]);
  });

  it('never overwrites an earlier export', async () => {
    const r = await exportStudy(store, {}, { outDir: tmp.dir, folderName: 'a' });
    expect(r).toMatchObject({ ok: false, error: { code: 'folder_exists' } });
  });

  it('refuses a folder that does not exist or is not a folder', async () => {
    writeFileSync(out('a-file'), 'x');
    expect(await exportStudy(store, {}, { outDir: join(tmp.dir, 'missing', 'deeper') })).toMatchObject({
      ok: false,
      error: { code: 'folder_unwritable' },
    });
    expect(await exportStudy(store, {}, { outDir: out('a-file') })).toMatchObject({
      ok: false,
      error: { code: 'folder_unwritable' },
    });
  });

  it('says the disk is full when a write fails with ENOSPC, and leaves nothing behind', async () => {
    // /dev/full fails every write with ENOSPC, as a full disk does.
    const r = await exportStudy(
      store,
      {},
      {
        outDir: tmp.dir,
        folderName: 'full',
        openWrite: (p) =>
          p.endsWith('measures_long.csv')
            ? createWriteStream('/dev/full')
            : createWriteStream(p, { flags: 'wx' }),
      },
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'disk_full' } });
    if (!r.ok) expect(r.error.action).toMatch(/space/);
    expect(existsSync(out('full'))).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('stops when cancelled while writing and leaves nothing behind', async () => {
    const ac = new AbortController();
    // Cancelled once the files are open and the first rows are on their way.
    const r = await exportStudy(
      store,
      {},
      {
        outDir: tmp.dir,
        folderName: 'cancelled',
        signal: ac.signal,
        onProgress: (p) => {
          if (p.stage === 'preparing') ac.abort();
        },
      },
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(existsSync(out('cancelled'))).toBe(false);
    expect(leftovers()).toEqual([]);
  });
});

// Last: it changes the database.
describe('a consistent snapshot', () => {
  // A SQLite file's snapshot is a connection of its own; PGlite has one connection, which the snapshot holds.
  it.skipIf(testEngine() !== 'sqlite')(
    'reads through its own connection: the engine keeps writing during an export, and the export shows the data as it was when it started',
    async () => {
      const { db } = openStudyDb(join(tmp.dir, 'study.sqlite'));
      try {
        const before = (
          db
            .prepare(
              `SELECT count(*) AS n FROM recordings r WHERE r.study_id = 1 AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id)`,
            )
            .get() as { n: number }
        ).n;
        let wrote = false;
        const r = await runExport(
          { store: sqliteStore(db) },
          { studyId: 1, timeZone: 'UTC', forms: ['long'] },
          {
            outDir: tmp.dir,
            folderName: 'snapshot',
            appVersion: 't',
            onProgress: (p) => {
              if (p.stage !== 'preparing') return;
              // What the poller does meanwhile, on the engine's connection: it must neither fail nor show up in the export.
              db.transaction(() => {
                const id = Number(
                  db
                    .prepare(
                      `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
              SELECT 1, id, '/x/new.wav', 'ab', 1, '2024-04-01T00:00:00.000Z', 'manifest', 'uploaded', 'now' FROM participants WHERE code = 'P,01'`,
                    )
                    .run().lastInsertRowid,
                );
                db.prepare(
                  `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, 'wellbeing', 'processing', 'now')`,
                ).run(id);
                db.prepare(
                  `UPDATE analyses SET state = 'error' WHERE recording_id IN (SELECT id FROM recordings WHERE study_id = 1)`,
                ).run();
              })();
              wrote = true;
            },
          },
        );
        expect(wrote).toBe(true);
        if (!r.ok) throw new Error(r.error.message);
        expect(r.value.counts.recordings).toBe(before);
        const states = new Set(
          readCsv(join(out('snapshot'), 'measures_long.csv')).records.map((x) => x['analysis_state']),
        );
        expect(states).toContain('completed');
      } finally {
        db.close();
      }
    },
  );
});
