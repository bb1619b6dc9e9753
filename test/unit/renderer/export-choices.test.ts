/**
 * The export page's choices and the request they make (renderer/src/features/exports/export-choices.ts):
 * what is left at "everything" stays out of the request, and the Export button waits while the choices
 * leave nothing to export or nowhere to write.
 */
import { describe, expect, it } from 'vitest';
import {
  choicesIncomplete,
  exportRequest,
  initialChoices,
  splitCodes,
  toggled,
} from '../../../renderer/src/features/exports/export-choices';
import { ExportRequestSchema } from '../../../shared/export';
import { ANALYSIS_STATES } from '../../../shared/states';

const first = initialChoices('Europe/Berlin');

describe('the request the export page makes', () => {
  it('is everything, the three forms, for R, Python and SPSS, when nothing is changed', () => {
    expect(exportRequest(4, first)).toEqual({
      studyId: 4,
      timeZone: 'Europe/Berlin',
      forms: ['long', 'wide', 'summary'],
      extras: [],
      preset: 'standard',
      includeLinkFile: false,
    });
    expect(ExportRequestSchema.safeParse(exportRequest(4, first)).success).toBe(true);
  });
  it('carries each narrowing the researcher made', () => {
    const request = exportRequest(4, {
      ...first,
      allParticipants: false,
      codes: 'P-01, P-02\nP-01',
      from: '2026-01-01',
      to: '2026-02-01',
      sessions: ['morning'],
      analyses: ['wellbeing'],
      states: ['completed'],
      baselineSessions: 5,
      link: true,
    });
    expect(request).toMatchObject({
      participants: ['P-01', 'P-02'],
      from: '2026-01-01',
      to: '2026-02-01',
      sessions: ['morning'],
      analyses: ['wellbeing'],
      states: ['completed'],
      baselineSessions: 5,
      includeLinkFile: true,
    });
  });
  it('leaves the states out when every state is ticked', () => {
    expect(exportRequest(4, { ...first, states: [...ANALYSIS_STATES] })).not.toHaveProperty('states');
  });
});

describe('participant codes as typed', () => {
  it('are split at lines, commas, semicolons and tabs, trimmed, each once', () => {
    expect(splitCodes(' P-01,P-02;\tP-03\n\nP-01 ')).toEqual(['P-01', 'P-02', 'P-03']);
    expect(splitCodes(' , \n')).toEqual([]);
  });
});

describe('ticking a box', () => {
  it('adds the item at the end, and unticking removes it', () => {
    expect(toggled(['a', 'b'], 'c', true)).toEqual(['a', 'b', 'c']);
    expect(toggled(['a', 'b', 'c'], 'b', false)).toEqual(['a', 'c']);
  });
});

describe('the Export button', () => {
  it('is ready with the first choices, and waits for a folder in the desktop app', () => {
    expect(choicesIncomplete(first, false)).toBe(false);
    expect(choicesIncomplete(first, true)).toBe(true);
  });
  it('waits while the choices leave nothing to export', () => {
    expect(choicesIncomplete({ ...first, forms: [] }, false)).toBe(true);
    expect(choicesIncomplete({ ...first, states: [] }, false)).toBe(true);
    expect(choicesIncomplete({ ...first, analyses: [] }, false)).toBe(true);
    expect(choicesIncomplete({ ...first, sessions: [] }, false)).toBe(true);
    expect(choicesIncomplete({ ...first, allParticipants: false, codes: ' ,' }, false)).toBe(true);
    expect(choicesIncomplete({ ...first, allParticipants: false, codes: 'P-01' }, false)).toBe(false);
  });
});
