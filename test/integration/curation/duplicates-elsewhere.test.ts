/**
 * The same audio under another participant or in another study is flagged in the import
 * preview with where it was seen, and held as a duplicate: the researcher decides (sends it anyway, or
 * fixes the file's participant). The per-participant check (main/db/repos/duplicates.repo.ts) is kept.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planImport } from '../../../main/import/import-plan';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { seenElsewhereText } from '../../../shared/seen-elsewhere';
import { makeWav } from '../../fixtures/audio';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy } from '../rpc/seed';

let root: string;
let svc: StudyService;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vs-dup-elsewhere-'));
  svc = await openTestStudyService({ workspaceDir: join(root, 'home'), now: () => NOW });
});
afterEach(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('the same audio elsewhere in the workspace', () => {
  it('is flagged before upload with where it was seen, and held as a duplicate', async () => {
    const dir = join(root, 'incoming');
    mkdirSync(dir);
    const audio = (seed: number) => makeWav({ seconds: 42, speechSeconds: 36, seed: 500 + seed });
    const [a, b, c, d] = [1, 2, 3, 4].map(audio) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    const voice = await seedStudy(svc.store, 'Voice');
    const pilot = await seedStudy(svc.store, 'Pilot');
    const p1 = await seedParticipant(svc.store, voice, 'P-001');
    const q1 = await seedParticipant(svc.store, pilot, 'Q-1');
    const inVoice = await seedRecording(svc.store, voice, p1, { recordedAt: daysAgo(9), session: 'W1' });
    const inPilot = await seedRecording(svc.store, pilot, q1, { recordedAt: daysAgo(9) });
    await svc.store.run(`UPDATE recordings SET content_sha256 = ? WHERE id = ?`, [sha(a), inVoice]);
    await svc.store.run(`UPDATE recordings SET content_sha256 = ? WHERE id = ?`, [sha(b), inPilot]);
    const files: [string, Uint8Array, string][] = [
      ['a.wav', a, 'P-002'], // P-001's audio in this study
      ['b.wav', b, 'P-003'], // Q-1's audio in the Pilot study
      ['c1.wav', c, 'P-004'], // new
      ['c2.wav', c, 'P-005'], // the same as c1, another participant of this import
      ['d.wav', d, 'P-001'], // new
      ['a-again.wav', a, 'P-001'], // P-001's own audio again: the per-participant check
    ];
    const rows = ['file,participant,recorded_at,session'];
    files.forEach(([name, bytes, code], i) => {
      writeFileSync(join(dir, name), bytes);
      rows.push(`${name},${code},2026-05-0${i + 1} 10:00,W2`);
    });
    writeFileSync(join(dir, 'manifest.csv'), rows.join('\n') + '\n');
    const plan = await planImport(svc, {
      studyId: voice,
      paths: [dir],
      manifestPath: join(dir, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: false,
    });
    const byName = new Map(plan.files.map((f) => [f.fileName, f]));
    expect(byName.get('a.wav')).toMatchObject({
      action: 'duplicate',
      duplicateOf: { recordingId: inVoice },
      seenElsewhere: [
        { recordingId: inVoice, study: 'Voice', sameStudy: true, participantCode: 'P-001', session: 'W1' },
      ],
    });
    expect(byName.get('b.wav')).toMatchObject({
      action: 'duplicate',
      seenElsewhere: [{ recordingId: inPilot, study: 'Pilot', sameStudy: false, participantCode: 'Q-1' }],
    });
    expect(byName.get('c1.wav')).toMatchObject({ action: 'upload' });
    expect(byName.get('c1.wav')!.seenElsewhere).toBeUndefined();
    expect(byName.get('c2.wav')).toMatchObject({
      action: 'duplicate',
      duplicateOf: { recordingId: null, path: join(dir, 'c1.wav') },
      seenElsewhere: [{ recordingId: null, sameStudy: true, participantCode: 'P-004', session: 'W2' }],
    });
    expect(byName.get('d.wav')).toMatchObject({ action: 'upload' });
    expect(byName.get('a-again.wav')).toMatchObject({
      action: 'duplicate',
      duplicateOf: { recordingId: inVoice },
    });
    expect(byName.get('a-again.wav')!.seenElsewhere).toBeUndefined();
    expect(plan.counts).toMatchObject({ upload: 2, duplicate: 4 });

    expect(seenElsewhereText(byName.get('b.wav')!.seenElsewhere!)).toBe(
      `The same audio is already under participant Q-1 in study "Pilot", as recording ${inPilot}. Held: send it anyway only if it really belongs here too; otherwise fix the file's participant.`,
    );
    expect(seenElsewhereText(byName.get('c2.wav')!.seenElsewhere!)).toMatch(
      /under participant P-004 \(session W2\) in this study, as another file of this import/,
    );

    // The researcher decides: insisting sends it; the others are held with the copy they repeat.
    const committed = await svc.commitImport(plan, { insistOnDuplicates: [join(dir, 'b.wav')] });
    expect(committed.recordings).toBe(6);
    const state = async (name: string) =>
      (await svc.store.get(
        `SELECT upload_state, duplicate_of, duplicate_override FROM recordings WHERE source_path = ?`,
        [join(dir, name)],
      )) as {
        upload_state: string;
        duplicate_of: number | null;
        duplicate_override: number;
      };
    expect(await state('a.wav')).toMatchObject({ upload_state: 'duplicate', duplicate_of: inVoice });
    expect(await state('b.wav')).toMatchObject({ duplicate_override: 1 });
    expect((await state('b.wav')).upload_state).not.toBe('duplicate');
    expect((await state('c2.wav')).duplicate_of).toBe(
      (
        (await svc.store.get(`SELECT id FROM recordings WHERE source_path = ?`, [join(dir, 'c1.wav')])) as {
          id: number;
        }
      ).id,
    );
  });
});
