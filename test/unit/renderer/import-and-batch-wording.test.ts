/**
 * What the import wizard asks for before a preview, how its choices become the preview request, and
 * the sentence the batch screens use to say where a batch stands.
 */
import { describe, expect, it } from 'vitest';
import { batchFigures } from '../../../renderer/src/components/Progress';
import { ImportRequestSchema } from '../../../shared/contract/views';
import type { BatchProgress } from '../../../shared/study';
import { batchBadge, batchStatus, clockNotice } from '../../../renderer/src/features/batches/batch-status';
import {
  initialChoice,
  lastSegment,
  previewRequest,
  problemsOf,
  type ImportChoice,
} from '../../../renderer/src/features/import/import-choice';
import { isTimeZone } from '../../../shared/time-zone';

const choice = (over: Partial<ImportChoice> = {}): ImportChoice => ({
  ...initialChoice('v1.3'),
  timeZone: 'Europe/Berlin',
  ...over,
});

describe('import choices', () => {
  it('offer every analysis of the API version by default, with conversion and isolation off', () => {
    expect(initialChoice('v1.3').analyses).toEqual([
      'wellbeing',
      'parkinsons',
      'alzheimers',
      'communication_coach',
    ]);
    expect(initialChoice('v1.2').analyses).toEqual(['wellbeing', 'parkinsons', 'alzheimers']);
    expect(initialChoice('v1.2')).toMatchObject({ convert: false, isolate: false, mapping: 'manifest' });
    expect(isTimeZone(initialChoice('v1.3').timeZone)).toBe(true);
  });

  it('say what is missing, next to the field it concerns', () => {
    expect(problemsOf(choice())).toEqual({ manifest: expect.stringContaining('Choose the manifest') });
    expect(problemsOf(choice({ manifestPath: '/d/m.csv' }))).toEqual({});
    expect(problemsOf(choice({ mapping: 'pattern', pattern: '{session}.wav' }))).toEqual({
      paths: 'Add at least one folder or file.',
      pattern: expect.stringContaining('needs {participant}'),
    });
    expect(problemsOf(choice({ manifestPath: '/m.csv', timeZone: 'Mars/Olympus', analyses: [] }))).toEqual({
      timeZone: expect.stringContaining('not a time zone'),
      analyses: 'Choose at least one analysis.',
    });
  });

  it('become a preview request with only the mapping chosen', () => {
    const manifest = previewRequest(4, choice({ paths: ['/d'], manifestPath: ' /d/m.csv ', convert: true }));
    expect(manifest).toEqual({
      studyId: 4,
      paths: ['/d'],
      manifestPath: '/d/m.csv',
      timeZone: 'Europe/Berlin',
      analyses: ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'],
      isolateOldestSpeaker: false,
      convert: true,
    });
    const pattern = previewRequest(
      4,
      choice({ paths: ['/d'], manifestPath: '/d/m.csv', mapping: 'pattern', pattern: '{participant}.wav' }),
    );
    expect(pattern).not.toHaveProperty('manifestPath');
    expect(pattern.filenamePattern).toBe('{participant}.wav');
    expect(lastSegment('/data/study/week 3/')).toBe('week 3');
    expect(lastSegment('C:\\data\\visits')).toBe('visits');
  });

  it('carry the channel for the whole import and for single files into the request, which the contract accepts', () => {
    expect(previewRequest(4, choice({ paths: ['/d'] }))).not.toHaveProperty('channel');
    const r = previewRequest(
      4,
      choice({ paths: ['/d'], channel: 'mix', channelByFile: { '/d/P1_s1.wav': 2, '/d/P2_s1.wav': 'auto' } }),
    );
    expect(r.channel).toBe('mix');
    expect(r.channelByFile).toEqual([
      { path: '/d/P1_s1.wav', channel: 2 },
      { path: '/d/P2_s1.wav', channel: 'auto' },
    ]);
    expect(ImportRequestSchema.safeParse(r).success).toBe(true);
    expect(
      ImportRequestSchema.safeParse({ ...r, channelByFile: [{ path: '/d/x.wav', channel: 0 }] }).success,
    ).toBe(false);
  });
});

const batch = (over: Partial<BatchProgress>): BatchProgress => ({
  batchId: 1,
  studyId: 1,
  label: 'b',
  state: 'running',
  createdAt: '2026-01-01T00:00:00Z',
  analyses: ['wellbeing'],
  uploads: {},
  analysesByState: {},
  total: 0,
  pauseReason: null,
  serviceClockOffsetSeconds: null,
  heldBorderline: 0,
  ...over,
});

describe('batch status', () => {
  it('says what is sent, and why the rest waits', () => {
    expect(batchStatus(batch({ uploads: { uploaded: 3, queued: 7 } }))).toBe(
      'Sending: 3 files of 10 uploaded.',
    );
    expect(batchStatus(batch({ uploads: { uploaded: 3, queued: 7 } }), { queuePaused: true })).toBe(
      'Waiting: sending is paused for this service (see above); 3 files of 10 uploaded.',
    );
    expect(batchStatus(batch({ uploads: { uploaded: 1, pending: 2 } }))).toBe(
      'Sending: 1 file of 3 uploaded; 2 files wait for a participant account.',
    );
    expect(batchStatus(batch({ state: 'paused', uploads: { uploaded: 1, queued: 1 } }))).toMatch(
      /^Paused: 1 file of 2 sent/,
    );
    expect(batchStatus(batch({ state: 'open', uploads: { queued: 4 } }))).toBe(
      'Not started: nothing has been sent.',
    );
  });

  it("never calls a batch complete while an upload's outcome is unknown or results are still to come", () => {
    expect(batchStatus(batch({ state: 'finished', uploads: { upload_uncertain: 2, uploaded: 1 } }))).toBe(
      'Waiting for you: 2 uploads of unknown outcome need your decision; 1 file uploaded for certain.',
    );
    expect(
      batchStatus(
        batch({
          state: 'finished',
          uploads: { uploaded: 2 },
          analysesByState: { processing: 1, completed: 1 },
        }),
      ),
    ).toBe('Every file is sent; 1 analysis still to come back.');
    expect(
      batchStatus(
        batch({
          state: 'finished',
          uploads: { uploaded: 2, refused_locally: 1 },
          analysesByState: { completed: 2 },
        }),
      ),
    ).toBe('Complete: 2 files uploaded, every result back; 1 item needs you (open the batch).');
  });

  it('says "below" only where the needs-you list is, counting what it lists', () => {
    const done = batch({
      state: 'finished',
      uploads: { uploaded: 2, refused_locally: 1 },
      analysesByState: { completed: 2 },
    });
    expect(batchStatus(done, { needsYou: 1, below: true })).toBe(
      'Complete: 2 files uploaded, every result back; 1 item needs you (below).',
    );
    // The one refused file was dismissed: the list below is empty, and so is the sentence.
    expect(batchStatus(done, { needsYou: 0, below: true })).toBe(
      'Complete: 2 files uploaded, every result back.',
    );
  });

  it('shows a badge that matches the state: done sending only while results are to come', () => {
    const sent = { state: 'finished' as const, uploads: { uploaded: 2 } };
    expect(batchBadge(batch({ ...sent, analysesByState: { processing: 1, completed: 1 } })).label).toBe(
      'Done sending, results to come',
    );
    expect(batchBadge(batch({ ...sent, analysesByState: { completed: 2 } }))).toEqual({
      label: 'Complete',
      tone: 'ok',
    });
    expect(batchBadge(batch({ ...sent, uploads: { uploaded: 1, upload_uncertain: 1 } })).label).toBe(
      'Waiting for you',
    );
    expect(batchBadge(batch({ state: 'running' })).label).toBe('Sending');
  });

  it('counts the analyses to finish from the start, not as uploads are accepted', () => {
    const b = (uploads: BatchProgress['uploads'], analysesByState: BatchProgress['analysesByState']) =>
      batchFigures(
        batch({
          analyses: ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'],
          uploads,
          analysesByState,
        }),
      );
    expect(b({ queued: 5 }, {})).toMatchObject({ analysed: 0, analyses: 20 });
    expect(b({ queued: 4, uploaded: 1 }, { processing: 4 })).toMatchObject({ analyses: 20 });
    expect(b({ uploaded: 5 }, { completed: 18, processing: 2 })).toMatchObject({
      analysed: 18,
      analyses: 20,
    });
  });
});

describe('clock difference notice', () => {
  it('says nothing within a minute, and how far and which way beyond it', () => {
    expect(clockNotice(batch({ serviceClockOffsetSeconds: null }))).toBeNull();
    expect(clockNotice(batch({ serviceClockOffsetSeconds: -60 }))).toBeNull();
    expect(clockNotice(batch({ serviceClockOffsetSeconds: -360 }))).toMatch(
      /^The service's clock is 6 minutes behind this computer's\. .*counted on this computer's clock\.$/,
    );
    expect(clockNotice(batch({ serviceClockOffsetSeconds: 3 * 3600 }))).toMatch(/3 hours ahead of/);
  });
});
