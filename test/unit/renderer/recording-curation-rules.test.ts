/**
 * The recording page's curation rules: which acts a recording offers in its state (delete only what
 * never reached the service, send anyway only a locally refused file, no reassigning mid-upload), and
 * a reassignment that sends only what changed.
 */
import { describe, expect, it } from 'vitest';
import {
  curationOffers,
  optionalReason,
  reassignRequest,
  wasSent,
} from '../../../renderer/src/features/recording-detail/curation-requests';

describe('the acts a recording offers', () => {
  it('restore when excluded, exclude otherwise', () => {
    expect(curationOffers('uploaded', true, true).exclusion).toBe('restore');
    expect(curationOffers('uploaded', true, false).exclusion).toBe('exclude');
  });

  it('delete only a recording nothing of which reached the service', () => {
    expect(curationOffers('refused_locally', false, false).delete).toBe(true);
    expect(curationOffers('pending', true, false).delete).toBe(false);
    expect(curationOffers('uploaded', false, false).delete).toBe(false);
  });

  it('send anyway only a locally refused file, and reassign anything but an upload under way', () => {
    expect(curationOffers('refused_locally', false, false)).toMatchObject({
      sendAnyway: true,
      reassign: true,
    });
    expect(curationOffers('uploading', false, false)).toMatchObject({ sendAnyway: false, reassign: false });
  });

  it('count a recording as sent when its state says so or the service has it', () => {
    expect(wasSent('upload_uncertain', false)).toBe(true);
    expect(wasSent('pending', true)).toBe(true);
    expect(wasSent('queued', false)).toBe(false);
  });
});

describe('a reassignment', () => {
  const row = { id: 9, participantId: 3, session: 'week 1' };

  it('sends only the participant when another one was named', () => {
    expect(reassignRequest(row, { participantId: 4, session: ' week 1 ', reason: '' })).toEqual({
      recordingId: 9,
      participantId: 4,
    });
  });

  it('sends the edited session, an empty one as none, with the reason when one was typed', () => {
    expect(reassignRequest(row, { participantId: 3, session: 'week 2', reason: 'typo' })).toEqual({
      recordingId: 9,
      session: 'week 2',
      reason: 'typo',
    });
    expect(reassignRequest(row, { participantId: 3, session: '  ', reason: ' ' })).toEqual({
      recordingId: 9,
      session: null,
    });
    expect(reassignRequest({ ...row, session: null }, { participantId: 3, session: '', reason: '' })).toEqual(
      {
        recordingId: 9,
      },
    );
  });

  it('leaves out a reason of only spaces', () => {
    expect(optionalReason('  ')).toEqual({});
    expect(optionalReason('moved')).toEqual({ reason: 'moved' });
  });
});
