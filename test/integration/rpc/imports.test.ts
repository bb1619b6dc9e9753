/**
 * The import procedures as the wizard calls them, through the router (input and output checked against
 * the contract) of a real app host with the built-in sandbox: the built-in file browser, the native
 * dialog's refusal in browser mode, the manifest template, the preview held in the main process and
 * paged, its progress events, the credit estimate and the commit, which happens once per preview.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Input } from '../../../shared/contract';
import { DEFAULT_SITE } from '../../../shared/team';
import { addSite } from '../../../main/db/team/members.repo';
import { makeSmallStudyFolder, type SmallStudyFolder } from '../../support/small-study-folder';
import { openTestHost, type TestHost } from './test-host';

let t: TestHost;
let folder: SmallStudyFolder;
let studyId: number;

const request = (over: Partial<Input<'imports.preview'>> = {}): Input<'imports.preview'> => ({
  studyId,
  paths: [folder.dir],
  manifestPath: folder.manifestPath,
  timeZone: 'Europe/Berlin',
  analyses: ['wellbeing', 'parkinsons'],
  isolateOldestSpeaker: false,
  convert: false,
  ...over,
});

beforeAll(async () => {
  t = await openTestHost();
  folder = makeSmallStudyFolder(t.root);
  ({ studyId } = await t.sandboxStudy('Import study'));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('files.list (the built-in file browser)', () => {
  it('lists folders first, then files in natural order; audio (every format the import lists) and CSV files are marked, hidden files left out', async () => {
    const dir = join(t.root, 'browse');
    mkdirSync(join(dir, 'week 10'), { recursive: true });
    mkdirSync(join(dir, 'week 9'));
    mkdirSync(join(dir, '.cache'));
    writeFileSync(join(dir, 'rec-10.wav'), 'x');
    writeFileSync(join(dir, 'rec-9.MP3'), 'xy');
    writeFileSync(join(dir, 'field.flac'), 'fLaC');
    writeFileSync(join(dir, 'manifest.csv'), 'file,participant\n');
    writeFileSync(join(dir, 'notes.txt'), 'n');
    writeFileSync(join(dir, '._rec-9.MP3'), 'apple double');
    const l = await t.must('files.list', { path: dir });
    expect(l.path).toBe(dir);
    expect(l.parent).toBe(t.root);
    expect(l.truncated).toBe(false);
    expect(l.entries.map((e) => e.name)).toEqual([
      'week 9',
      'week 10',
      'field.flac',
      'manifest.csv',
      'notes.txt',
      'rec-9.MP3',
      'rec-10.wav',
    ]);
    expect(l.entries.find((e) => e.name === 'rec-9.MP3')).toMatchObject({
      kind: 'file',
      audio: true,
      csv: false,
      sizeBytes: 2,
      path: join(dir, 'rec-9.MP3'),
    });
    expect(l.entries.find((e) => e.name === 'field.flac')).toMatchObject({ audio: true, csv: false });
    expect(l.entries.find((e) => e.name === 'manifest.csv')).toMatchObject({ audio: false, csv: true });
    expect(l.entries.find((e) => e.name === 'notes.txt')).toMatchObject({ audio: false, csv: false });
    expect(l.entries.find((e) => e.name === 'week 9')).toMatchObject({
      kind: 'dir',
      sizeBytes: null,
      audio: false,
    });
  });

  it('opens the home folder when no path is given, and has no parent at the root', async () => {
    const home = await t.must('files.list', {});
    expect(home.path).toBe(homedir());
    expect(home.home).toBe(homedir());
    expect((await t.must('files.list', { path: '/' })).parent).toBeNull();
  });

  it('says in words that a folder cannot be opened, and what to do', async () => {
    const r = await t.call('files.list', { path: join(t.root, 'no-such-folder') });
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', action: 'Choose another folder.' } });
    expect(!r.ok && r.error.message).toContain('is not a folder that can be opened');
  });
});

describe('files.pick and files.manifestTemplate', () => {
  it('answers UNSUPPORTED in browser mode (no native dialogs) and points at the built-in browser', async () => {
    expect(await t.call('files.pick', { purpose: 'folder' })).toMatchObject({
      ok: false,
      error: { code: 'UNSUPPORTED', action: 'Use the built-in file browser.' },
    });
  });

  it('passes the dialog through when the host has one (Electron)', async () => {
    const withDialogs = await openTestHost({
      dialogs: { pick: async (purpose) => (purpose === 'manifest' ? ['/data/manifest.csv'] : []) },
    });
    try {
      expect(await withDialogs.must('files.pick', { purpose: 'manifest' })).toEqual({
        paths: ['/data/manifest.csv'],
      });
      expect(await withDialogs.must('files.pick', { purpose: 'audio' })).toEqual({ paths: [] });
      expect((await withDialogs.must('app.info', {})).capabilities.nativeDialogs).toBe(true);
    } finally {
      await withDialogs.close();
    }
  });

  it('gives the manifest template with the four documented columns', async () => {
    const { csv } = await t.must('files.manifestTemplate', {});
    expect(csv.split(/\r?\n/)[0]).toBe('file,participant,recorded_at,session');
    expect(csv).toContain('P001');
  });
});

describe('imports.preview and imports.planFiles', () => {
  it('counts each action, reports manifest errors by line and notices, lists new participants, and sends nothing', async () => {
    const before = t.events('imports.progress').length;
    const p = await t.must('imports.preview', request());
    expect(p.counts).toEqual(folder.expected.off);
    expect(p.totalFiles).toBe(14);
    expect(p.totalBytes).toBeGreaterThan(10 * 1_000_000);
    expect(p.manifestErrors).toEqual([
      { line: folder.missingLine, message: expect.stringContaining('does not exist') },
    ]);
    // The files left out are named (the field notes and the manifest itself), not only counted.
    expect(p.notices.join(' ')).toMatch(
      /2 files were left out because [^:]*: (manifest\.csv, notes\.txt|notes\.txt, manifest\.csv)\./,
    );
    expect(p.newParticipants).toEqual(['P01', 'P02', 'P03', 'P04']);
    expect(p.participantsWithoutAccount).toEqual([]);
    // Progress while reading: at most every 200 ms, and always the last file.
    const progress = t.events('imports.progress').slice(before);
    expect(progress.at(-1)).toEqual({ done: 14, total: 14 });
    expect(((await t.sandboxAdmin('GET', 'requests')) as unknown[]).length).toBe(0);
  });

  it('pages the plan from the main process and filters it by action, each refused file with its reasons and what to do', async () => {
    const p = await t.must('imports.preview', request());
    const first = await t.must('imports.planFiles', { planId: p.planId, offset: 0, limit: 5 });
    expect(first.total).toBe(14);
    expect(first.rows).toHaveLength(5);
    const rest = await t.must('imports.planFiles', { planId: p.planId, offset: 5, limit: 500 });
    expect(rest.rows).toHaveLength(9);
    expect(new Set([...first.rows, ...rest.rows].map((r) => r.path)).size).toBe(14);

    const refused = await t.must('imports.planFiles', {
      planId: p.planId,
      action: 'refused',
      offset: 0,
      limit: 50,
    });
    expect(refused.total).toBe(3);
    const byName = new Map(refused.rows.map((r) => [r.fileName, r]));
    expect(byName.get(folder.files.stereo)!.verdict).toMatchObject({
      status: 'needs_conversion',
      findings: [
        { severity: 'refuse', fixedByConversion: true, message: expect.stringContaining('2 channels') },
      ],
    });
    expect(byName.get(folder.files.short)!.verdict.findings[0]).toMatchObject({
      code: 'speech_too_short',
      message: expect.stringContaining('requires at least 30 s'),
      action: expect.any(String),
    });
    expect(byName.get(folder.files.text)!.verdict.findings[0]).toMatchObject({
      severity: 'refuse',
      fixedByConversion: false,
    });

    const dup = await t.must('imports.planFiles', {
      planId: p.planId,
      action: 'duplicate',
      offset: 0,
      limit: 50,
    });
    expect(dup.rows).toEqual([
      expect.objectContaining({
        fileName: folder.files.copy,
        duplicateOf: { recordingId: null, path: join(folder.dir, folder.files.original) },
      }),
    ]);

    const good = (
      await t.must('imports.planFiles', { planId: p.planId, action: 'upload', offset: 0, limit: 50 })
    ).rows[0]!;
    expect(good).toMatchObject({
      participantCode: expect.stringMatching(/^P0\d$/),
      recordedAtSource: 'manifest',
      format: 'wav',
      channels: 1,
      sampleRateHz: 16_000,
    });
    expect(good.speechSeconds).toBeGreaterThan(30);
  });

  it('with conversion on, the stereo file becomes "convert and upload"', async () => {
    const p = await t.must('imports.preview', request({ convert: true }));
    expect(p.counts).toEqual(folder.expected.on);
    const converted = await t.must('imports.planFiles', {
      planId: p.planId,
      action: 'convert_and_upload',
      offset: 0,
      limit: 10,
    });
    expect(converted.rows.map((r) => [r.fileName, r.verdict.status])).toEqual([
      [folder.files.stereo, 'will_convert'],
    ]);
  });

  it('maps participants and dates from a file-name pattern instead of a manifest', async () => {
    const p = await t.must(
      'imports.preview',
      request({ manifestPath: undefined, filenamePattern: folder.pattern }),
    );
    expect(p.counts.unassigned).toBe(0);
    expect(p.manifestErrors).toEqual([]);
    const rows = (await t.must('imports.planFiles', { planId: p.planId, offset: 0, limit: 50 })).rows;
    expect(rows.find((r) => r.fileName === folder.files.original)).toMatchObject({
      participantCode: 'P01',
      session: 'w1',
      recordedAtSource: 'filename',
    });
  });

  it("refuses what the study's API version does not offer, and an empty import, in words", async () => {
    const v12 = await t.sandboxStudy('Old API study', 'v1.2');
    const coach = await t.call('imports.preview', {
      ...request(),
      studyId: v12.studyId,
      analyses: ['communication_coach'],
    });
    expect(coach).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', message: 'API v1.2 does not offer communication_coach.' },
    });
    const isolate = await t.call('imports.preview', {
      ...request(),
      studyId: v12.studyId,
      isolateOldestSpeaker: true,
    });
    expect(isolate).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', message: expect.stringContaining('only in API v1.3') },
    });
    expect(await t.call('imports.preview', request({ paths: [], manifestPath: undefined }))).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', message: 'Nothing to import.' },
    });
    expect(await t.call('imports.preview', request({ analyses: [] }))).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', message: 'No analysis type is selected.' },
    });
    const missing = await t.call(
      'imports.preview',
      request({ paths: [join(t.root, 'gone')], manifestPath: undefined }),
    );
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', message: expect.stringContaining('could not be read') },
    });
  });

  it('tells a study database that fails apart from files that cannot be read', async () => {
    await t.store.run('ALTER TABLE participants RENAME TO participants_away');
    try {
      const r = await t.call('imports.preview', request());
      expect(r).toMatchObject({
        ok: false,
        error: { code: 'REFUSED', message: expect.stringContaining('The import could not be prepared') },
      });
      expect(r.ok ? '' : r.error.action).toMatch(/Nothing was written/);
    } finally {
      await t.store.run('ALTER TABLE participants_away RENAME TO participants');
    }
  });

  it('keeps the four most recent previews; an older one is gone with a clear way out', async () => {
    const oldest = await t.must('imports.preview', request());
    for (let i = 0; i < 4; i++)
      await t.must(
        'imports.preview',
        request({
          paths: [join(folder.dir, folder.files.original)],
          manifestPath: undefined,
          filenamePattern: folder.pattern,
        }),
      );
    const r = await t.call('imports.planFiles', { planId: oldest.planId, offset: 0, limit: 10 });
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', action: 'Preview the import again.' } });
  });
});

describe('imports.creditEstimate, imports.commit and imports.discard', () => {
  it("estimates the cost against the service's usage: uploads planned are the files to send, duplicates held back", async () => {
    const p = await t.must('imports.preview', request({ convert: true }));
    const c = await t.must('imports.creditEstimate', { planId: p.planId });
    expect(c.uploadsPlanned).toBe(folder.expected.on.upload + folder.expected.on.convert_and_upload);
    expect(c.uploadsRemaining).toBe(110); // the built-in sandbox's demo organisation: 10 trial + 100 included
    expect(c.emptiedBuckets).toEqual(['trial']);
    expect(c.shortBy).toBe(0);
    expect(c.message).toContain('empties the trial credits (the trial holds 10 credits)');
  });

  it('commits a preview once: the batch holds every assigned file in its state, and nothing is sent yet', async () => {
    const p = await t.must('imports.preview', request({ convert: true }));
    const committed = await t.must('imports.commit', {
      planId: p.planId,
      insistOnDuplicates: [],
      label: 'March sessions',
    });
    expect(committed.recordings).toBe(14);
    expect(committed.byState).toEqual({ pending: 11, refused_locally: 2, duplicate: 1 });
    expect(committed.conversionFailures).toEqual([]);
    const again = await t.call('imports.commit', {
      planId: p.planId,
      insistOnDuplicates: [],
      label: 'twice',
    });
    expect(again).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const batch = await t.must('batches.get', { batchId: committed.batchId });
    expect(batch).toMatchObject({
      label: 'March sessions',
      state: 'open',
      total: 14,
      analyses: ['wellbeing', 'parkinsons'],
    });
    expect(
      ((await t.sandboxAdmin('GET', 'requests')) as { endpoint: string }[]).filter(
        (r) => r.endpoint !== 'getUsage',
      ),
    ).toEqual([]);

    // A second import of the same folder: everything good is now a duplicate of the recordings in the study.
    const second = await t.must('imports.preview', request({ convert: true }));
    expect(second.counts.duplicate).toBe(12);
    expect(second.participantsWithoutAccount).toEqual(['P01', 'P02', 'P03', 'P04']);
    expect(second.newParticipants).toEqual([]);
    const dup = await t.must('imports.planFiles', {
      planId: second.planId,
      action: 'duplicate',
      offset: 0,
      limit: 1,
    });
    expect(dup.rows[0]!.duplicateOf!.recordingId).toEqual(expect.any(Number));
  }, 120_000); // two previews with conversion: about 11 s alone, over 30 s on the shared 2-core machine

  it('two commits of one preview at once (a double click) import it once', async () => {
    const study = await t.sandboxStudy('Double click study');
    const p = await t.must('imports.preview', { ...request(), studyId: study.studyId });
    const [a, b] = await Promise.all([
      t.call('imports.commit', { planId: p.planId, insistOnDuplicates: [], label: 'first' }),
      t.call('imports.commit', { planId: p.planId, insistOnDuplicates: [], label: 'second' }),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(a.ok ? b : a).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await t.must('batches.list', { studyId: study.studyId })).toHaveLength(1);
  });

  it('commits the duplicates the researcher insists on as files to send', async () => {
    const study = await t.sandboxStudy('Insisting study');
    const p = await t.must('imports.preview', { ...request(), studyId: study.studyId });
    const committed = await t.must('imports.commit', {
      planId: p.planId,
      insistOnDuplicates: [join(folder.dir, folder.files.copy)],
      label: '',
    });
    // Earlier tests imported the same folder into another study of this workspace: those ten files are
    // held as the same audio seen elsewhere until the researcher insists; the copy insisted on is sent.
    expect(committed.byState).toEqual({ pending: 1, duplicate: 10, refused_locally: 3 });
  });

  it('"Import and start sending" writes the start intent with the import: a crash before the start is recovered when the app opens', async () => {
    const study = await t.sandboxStudy('Interrupted start study');
    const p = await t.must('imports.preview', { ...request(), studyId: study.studyId });
    const committed = await t.must('imports.commit', {
      planId: p.planId,
      insistOnDuplicates: [],
      label: 'started',
      start: true,
    });
    // The window would now create accounts, read the credits and start the batch; the app stops first.
    expect((await t.must('batches.get', { batchId: committed.batchId })).state).toBe('open');
    // What openAppHost does when the app opens (main/app-host.ts):
    expect(await t.host.service.startInterruptedBatches()).toEqual([committed.batchId]);
    expect((await t.must('batches.get', { batchId: committed.batchId })).state).toBe('running');
    expect(await t.host.service.startInterruptedBatches()).toEqual([]);
  });

  it('puts the new participants at the site chosen; a site the study does not have is refused in words and the preview kept', async () => {
    const study = await t.sandboxStudy('Two sites study');
    await addSite(t.store, { studyId: study.studyId, code: 'north', name: 'North clinic', at: '2026-03-02' });
    const p = await t.must('imports.preview', { ...request(), studyId: study.studyId });
    const commit = (site: string) =>
      t.call('imports.commit', { planId: p.planId, insistOnDuplicates: [], label: '', site });
    expect(await commit('south')).toMatchObject({
      ok: false,
      error: {
        code: 'REFUSED',
        message: 'Site south is not a site of this study.',
        action: expect.stringContaining('under “Site of new participants”'),
      },
    });
    expect((await commit('north')).ok).toBe(true);
    const page = await t.must('participants.page', {
      studyId: study.studyId,
      sort: 'code',
      dir: 'asc',
      offset: 0,
      limit: 50,
    });
    expect(page.rows.map((r) => [r.code, r.site])).toEqual(p.newParticipants.map((c) => [c, 'north']));
    const one = await t.must('participants.get', { participantId: page.rows[0]!.id });
    expect(one.site).toBe('north');
  });

  it("without a site chosen, a study's new participants are at its default site", async () => {
    const study = await t.sandboxStudy('One site study');
    const p = await t.must('imports.preview', { ...request(), studyId: study.studyId });
    await t.must('imports.commit', { planId: p.planId, insistOnDuplicates: [], label: '' });
    const page = await t.must('participants.page', {
      studyId: study.studyId,
      sort: 'code',
      dir: 'asc',
      offset: 0,
      limit: 50,
    });
    expect(new Set(page.rows.map((r) => r.site))).toEqual(new Set([DEFAULT_SITE.code]));
  });

  it('discards a preview; paging it afterwards says it is gone', async () => {
    const p = await t.must('imports.preview', request());
    expect(await t.must('imports.discard', { planId: p.planId })).toEqual({ done: true });
    expect(await t.must('imports.discard', { planId: p.planId })).toEqual({ done: false });
    expect(await t.call('imports.creditEstimate', { planId: p.planId })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});
