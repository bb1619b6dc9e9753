/**
 * What curation changes downstream: an excluded recording stays in the exports, marked with
 * its reason, but counts neither in the participant summary's baseline and latest value nor in the
 * timeline; a recording reassigned after upload is exported under its new participant with a provenance
 * note saying which account the service analysed it under.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExport } from '../../../main/export/run-export';
import { participantTimeline } from '../../../main/change/timeline';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { readCsv, unneutralise } from '../export/helpers';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from '../rpc/seed';

let root: string;
let svc: StudyService;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vs-curation-fx-'));
  svc = await openTestStudyService({ workspaceDir: join(root, 'home'), now: () => NOW, operator: 'ada' });
});
afterEach(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** P-001 with HNR 10, 12, 14 (baseline) then 40 (a junk file), P-002 with one session. */
const seedStudyWithJunk = async () => {
  const s = await seedStudy(svc.store, 'Voice');
  const a = await seedParticipant(svc.store, s, 'P-001', { accountId: 'acct-a' });
  const b = await seedParticipant(svc.store, s, 'P-002', { accountId: 'acct-b' });
  const ids: number[] = [];
  for (const [i, v] of [10, 12, 14, 40].entries()) {
    const r = await seedRecording(svc.store, s, a, {
      recordedAt: daysAgo(40 - i * 10),
      session: `W${i + 1}`,
    });
    await storeValues(svc.store, r, 'parkinsons', { pd_hnr: v });
    ids.push(r);
  }
  const other = await seedRecording(svc.store, s, b, { recordedAt: daysAgo(5), session: 'W1' });
  await storeValues(svc.store, other, 'parkinsons', { pd_hnr: 20 });
  return { s, a, b, ids, other };
};

const exportFiles = async (studyId: number) => {
  const r = await runExport(
    svc,
    { studyId, timeZone: 'UTC', forms: ['wide', 'summary'], analyses: ['parkinsons'] },
    { outDir: root, appVersion: 'test', now: () => NOW },
  );
  if (!r.ok) throw new Error(r.error.message);
  const file = (name: string) =>
    join(r.value.directory, r.value.files.find((f) => f.name.startsWith(name))!.name);
  return {
    recordings: readCsv(file('recordings')).records,
    wide: readCsv(file('measures_wide')).records,
    summary: readCsv(file('participant_summary')).records,
  };
};

describe('an excluded recording', () => {
  it('stays in the exports marked with its reason, is left out of the summary, and is shown apart on the timeline', async () => {
    const { s, a, ids } = await seedStudyWithJunk();
    must(await svc.excludeRecording(ids[3]!, 'test recording, =not the participant'));
    const { recordings, wide, summary } = await exportFiles(s);
    expect(recordings).toHaveLength(5);
    const junk = recordings.find((r) => r['recording'] === String(ids[3]))!;
    expect(junk['excluded']).toBe('true');
    expect(unneutralise(junk['excluded_reason']!)).toBe('test recording, =not the participant');
    expect(recordings.filter((r) => r['excluded'] === 'false')).toHaveLength(4);
    expect(wide.find((r) => r['recording'] === String(ids[3]))).toMatchObject({
      excluded: 'true',
      pd_hnr: '40',
    });
    const hnr = summary.find((r) => r['participant'] === 'P-001' && r['measure'] === 'pd_hnr')!;
    // Three sessions left, all of them the baseline (k = 3): no later session, so no change yet.
    expect(hnr).toMatchObject({ n: '3', baseline_n: '3', baseline: '12', latest_value: '14', change: '' });
    const tl = (await participantTimeline(svc.store, a, 3))!;
    const series = tl.measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(series.points.map((p) => p.value)).toEqual([10, 12, 14]);
    expect(series.latest?.value).toBe(14);
    // Shown on the timeline, marked with its reason, its value apart: in no baseline, change or trend.
    expect(tl.sessions.find((x) => x.recordingId === ids[3])?.excluded).toBe(
      'test recording, =not the participant',
    );
    expect(series.excluded.map((p) => [p.recordingId, p.value])).toEqual([[ids[3], 40]]);
  });

  it('counts again once restored', async () => {
    const { s, ids } = await seedStudyWithJunk();
    must(await svc.excludeRecording(ids[3]!, 'noise'));
    must(await svc.restoreRecording(ids[3]!));
    const { summary, recordings } = await exportFiles(s);
    expect(summary.find((r) => r['participant'] === 'P-001' && r['measure'] === 'pd_hnr')).toMatchObject({
      n: '4',
      latest_value: '40',
    });
    expect(recordings.every((r) => r['excluded'] === 'false' && r['excluded_reason'] === '')).toBe(true);
  });
});

describe('a recording reassigned after upload', () => {
  it('is exported under its new participant and session, with a provenance note naming the first account', async () => {
    const { s, b, ids } = await seedStudyWithJunk();
    const done = must(await svc.reassignRecording(ids[3]!, { participantId: b, session: 'W2' }));
    expect(done.warning).toMatch(/P-001's account/);
    const { recordings, summary } = await exportFiles(s);
    const moved = recordings.find((r) => r['recording'] === String(ids[3]))!;
    expect(moved).toMatchObject({ participant: 'P-002', session: 'W2' });
    expect(moved['provenance']).toMatch(/^Reassigned from participant P-001 to P-002 after upload/);
    expect(summary.find((r) => r['participant'] === 'P-002' && r['measure'] === 'pd_hnr')).toMatchObject({
      n: '2',
      // Two sessions: a baseline needs three, so there is none yet.
      baseline: '',
      change_verdict: 'no_baseline_yet',
      latest_value: '20',
    });
  });
});
