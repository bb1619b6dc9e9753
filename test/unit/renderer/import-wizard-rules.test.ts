/**
 * The import wizard's rules, apart from its screens: which folder a typed path sits in, how ticking an
 * analysis keeps the version's order, how many files an import sends and keeps, which accounts it asks
 * for, the commit request and its steps, and how a planned file is said in the preview.
 */
import { describe, expect, it } from 'vitest';
import type { PlanSummary } from '../../../shared/contract/imports.contract';
import { PLANNED_ACTIONS } from '../../../shared/states';
import type { FindingView, PlannedFile } from '../../../shared/study';
import {
  accountsToCreate,
  commitRequest,
  filesToSend,
  keptNotSent,
  presetSite,
  runSteps,
  someCodes,
} from '../../../renderer/src/features/import/confirm-plan';
import {
  analysesNotOffered,
  parentFolder,
  withAnalysis,
} from '../../../renderer/src/features/import/import-choice';
import {
  audioInWords,
  channelValue,
  parseChannel,
  reasonOf,
  whatToDo,
} from '../../../renderer/src/features/import/plan-file-words';

const counts = (over: Partial<PlanSummary['counts']> = {}): PlanSummary['counts'] => ({
  ...(Object.fromEntries(PLANNED_ACTIONS.map((a) => [a, 0])) as PlanSummary['counts']),
  ...over,
});

const summary = (over: Partial<PlanSummary> = {}): PlanSummary => ({
  planId: 'plan-1',
  counts: counts({ upload: 3 }),
  totalFiles: 3,
  totalBytes: 1000,
  manifestErrors: [],
  notices: [],
  newParticipants: [],
  participantsWithoutAccount: [],
  ...over,
});

const finding = (over: Partial<FindingView>): FindingView => ({
  code: 'c',
  severity: 'refuse',
  message: 'Too short.',
  action: 'Record again.',
  fixedByConversion: false,
  ...over,
});

const file = (over: Partial<PlannedFile> = {}): PlannedFile => ({
  path: '/d/a.wav',
  fileName: 'a.wav',
  sizeBytes: 1000,
  sha256: null,
  participantCode: 'P-001',
  session: null,
  recordedAt: null,
  recordedAtSource: null,
  format: 'wav',
  channels: 1,
  sampleRateHz: 16_000,
  durationSeconds: 42,
  speechSeconds: 35,
  verdict: { status: 'accepted', findings: [] },
  duplicateOf: null,
  action: 'upload',
  assignmentProblem: null,
  ...over,
});

describe('a typed path', () => {
  it('names a file in the folder before its last separator, on either kind of path', () => {
    expect(parentFolder('/home/me/a.wav')).toBe('/home/me');
    expect(parentFolder('C:\\study\\a.wav')).toBe('C:\\study');
    expect(parentFolder('/a.wav')).toBe('/');
    expect(parentFolder('a.wav')).toBeNull();
  });
});

describe('the analyses chosen', () => {
  const offered = ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'] as const;

  it('keep the order the version offers them in when one is ticked, and lose one when it is unticked', () => {
    expect(withAnalysis(offered, ['alzheimers'], 'wellbeing', true)).toEqual(['wellbeing', 'alzheimers']);
    expect(withAnalysis(offered, ['wellbeing', 'alzheimers'], 'wellbeing', false)).toEqual(['alzheimers']);
  });

  it('say what an older version does not offer', () => {
    expect(analysesNotOffered('v1.2')).toEqual(['communication_coach']);
    expect(analysesNotOffered('v1.3')).toEqual([]);
  });
});

describe('what an import sends', () => {
  it('counts valid files, converted copies, duplicates sent anyway and the borderline files chosen', () => {
    expect(filesToSend(counts({ upload: 3, convert_and_upload: 2, duplicate: 4, borderline: 5 }), 1, 2)).toBe(
      8,
    );
    expect(filesToSend(counts({ refused: 3 }), 0, 0)).toBe(0);
  });

  it('keeps refused files and the duplicates not sent anyway', () => {
    expect(keptNotSent(counts({ refused: 2, duplicate: 3 }), 1)).toBe(4);
  });

  it('asks for each participant without an account once, and for none when nothing is sent', () => {
    const s = summary({
      newParticipants: ['P-002', 'P-003'],
      participantsWithoutAccount: ['P-003', 'P-004'],
    });
    expect(accountsToCreate(s, 2)).toEqual(['P-002', 'P-003', 'P-004']);
    expect(accountsToCreate(s, 0)).toEqual([]);
  });

  it('names the first codes and counts the rest', () => {
    expect(someCodes(['A', 'B', 'C'], 3)).toBe('A, B, C');
    expect(someCodes(['A', 'B', 'C', 'D'], 2)).toBe('A, B and 2 more');
  });

  it('shows the accounts step only when accounts are created', () => {
    expect(runSteps(true)).toEqual(['commit', 'accounts', 'credits', 'start']);
    expect(runSteps(false)).toEqual(['commit', 'credits', 'start']);
  });
});

describe('the commit request', () => {
  const base = {
    planId: 'plan-1',
    insist: new Set(['/d/dup.wav']),
    sendAllBorderline: false,
    chosenBorderline: new Set<string>(),
    label: '  Week 12 ',
    start: false,
  };

  it('carries the duplicates sent anyway and the trimmed label, and no borderline choice when none was made', () => {
    expect(commitRequest(base)).toEqual({
      planId: 'plan-1',
      insistOnDuplicates: ['/d/dup.wav'],
      label: 'Week 12',
    });
  });

  it('sends every borderline file when asked to, else those ticked one by one', () => {
    const chosen = new Set(['/d/b1.wav']);
    expect(commitRequest({ ...base, chosenBorderline: chosen, sendAllBorderline: true })).toMatchObject({
      sendBorderline: true,
    });
    expect(commitRequest({ ...base, chosenBorderline: chosen })).toMatchObject({
      sendBorderline: ['/d/b1.wav'],
    });
  });

  it('asks the import to start when the batch is to be sent at once', () => {
    expect(commitRequest({ ...base, start: true })).toMatchObject({ start: true });
  });

  it("names the team study's site of new participants when one is chosen, and none otherwise", () => {
    expect(commitRequest({ ...base, site: 'north' })).toMatchObject({ site: 'north' });
    expect(commitRequest({ ...base, site: undefined })).not.toHaveProperty('site');
  });
});

describe('the site of new participants before a choice', () => {
  it("is the member's one site; with several, or none known yet, nothing is chosen", () => {
    expect(presetSite([{ code: 'b' }])).toBe('b');
    expect(presetSite([{ code: 'a' }, { code: 'b' }])).toBeUndefined();
    expect(presetSite([])).toBeUndefined();
  });
});

describe('a planned file in words', () => {
  it('gives the audio with its channels, rate and length', () => {
    expect(audioInWords(file())).toBe('WAV mono 16 kHz, 42.0 s');
    expect(audioInWords(file({ channels: 2, sampleRateHz: 44_100 }))).toBe('WAV stereo 44.1 kHz, 42.0 s');
    expect(audioInWords(file({ channels: 4, sampleRateHz: null }))).toBe('WAV 4 ch, 42.0 s');
    expect(audioInWords(file({ format: null }))).toBe('—');
  });

  it('gives the refusals as the reason, and what to do about them', () => {
    const f = file({
      action: 'refused',
      verdict: {
        status: 'refused',
        findings: [finding({ severity: 'warn', message: 'Quiet.' }), finding({})],
      },
    });
    expect(reasonOf(f)).toBe('Too short.');
    expect(whatToDo(f)).toBe('Record again.');
    expect(whatToDo(file())).toBe('—');
  });

  it('says a converted file is sent as a mono 16 kHz copy', () => {
    const f = file({
      action: 'convert_and_upload',
      verdict: {
        status: 'will_convert',
        findings: [finding({ message: 'Stereo.', fixedByConversion: true })],
      },
    });
    expect(reasonOf(f)).toBe('Stereo. A mono 16 kHz copy is sent instead.');
  });

  it('names the recording a duplicate repeats, or the earlier file of the import', () => {
    expect(reasonOf(file({ action: 'duplicate', duplicateOf: { recordingId: 7, path: '/old/x.wav' } }))).toBe(
      'Same audio as recording 7 (x.wav).',
    );
    expect(
      reasonOf(file({ action: 'duplicate', duplicateOf: { recordingId: null, path: '/d/y.wav' } })),
    ).toBe('Same audio as y.wav.');
  });

  it('gives the missing participant, and where to add it', () => {
    const f = file({
      action: 'unassigned',
      participantCode: null,
      assignmentProblem: 'Not in the manifest.',
    });
    expect(reasonOf(f)).toBe('Not in the manifest.');
    expect(reasonOf(file({ action: 'unassigned', participantCode: null }))).toBe('No participant.');
    expect(whatToDo(f)).toBe('List it in the manifest, or set a file-name pattern it matches.');
  });

  it('falls back on what the action means when nothing was found', () => {
    expect(reasonOf(file())).toBe('Valid as it is; it will be uploaded.');
  });
});

describe('the channel sent', () => {
  it('round-trips through the select, as a name or a channel number', () => {
    for (const c of ['auto', 'mix', 2] as const) expect(parseChannel(channelValue(c))).toBe(c);
  });
});
