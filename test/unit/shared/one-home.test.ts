/**
 * Small rules that once had several copies, each now written once in shared/: the analysis types' names,
 * the key reference schemes and the ISO time text.
 */
import { describe, expect, it } from 'vitest';
import { keyLocation } from '../../../main/rpc/handlers/profiles.handlers';
import { ANALYSIS_LABEL, ANALYSIS_NAME, ANALYSIS_TYPES } from '../../../shared/api/vocabulary';
import { iso } from '../../../shared/iso';
import { KEY_REF_SCHEMES, keyRefOf, parseKeyRef } from '../../../shared/key-ref';
import { problemOf } from '../../../shared/recording-problems';

describe('analysis type names', () => {
  it('are written inside a sentence as the researcher reads them, and capitalised as labels', () => {
    expect(ANALYSIS_NAME).toEqual({
      wellbeing: 'wellbeing',
      parkinsons: "Parkinson's",
      alzheimers: "Alzheimer's",
      communication_coach: 'communication coach',
    });
    expect(ANALYSIS_TYPES.map((t) => ANALYSIS_LABEL[t])).toEqual([
      'Wellbeing',
      "Parkinson's",
      "Alzheimer's",
      'Communication coach',
    ]);
  });

  it('are the ones a recording that needs the researcher names', () => {
    const p = problemOf({
      uploadState: 'uploaded',
      analyses: [
        { type: 'wellbeing', state: 'error' },
        { type: 'communication_coach', state: 'error' },
      ],
      verdict: null,
      uploadError: null,
    });
    expect(p?.summary).toContain('wellbeing, communication coach');
  });
});

describe('key references', () => {
  it('are written and read back with their scheme and name (a name may hold a colon)', () => {
    for (const scheme of KEY_REF_SCHEMES)
      expect(parseKeyRef(keyRefOf(scheme, 'a:b'))).toEqual({ scheme, written: scheme, name: 'a:b' });
  });

  it('an unknown scheme is named as written, and its place is unknown', () => {
    expect(parseKeyRef('vault:3')).toEqual({ scheme: null, written: 'vault', name: '3' });
    expect(keyLocation('vault:3')).toBe('an unknown place');
  });

  it('each scheme says where the key is kept', () => {
    expect(keyLocation(keyRefOf('env', 'VOICESCOPE_KEY'))).toBe('the environment variable VOICESCOPE_KEY');
    expect(keyLocation(keyRefOf('key-file', '1'))).toMatch(/key file/);
    expect(keyLocation(keyRefOf('safe-storage', '1'))).toMatch(/keychain/);
  });
});

describe('iso', () => {
  it('writes an instant as ISO 8601 UTC with milliseconds', () => {
    expect(iso(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe('2026-01-02T03:04:05.006Z');
  });
});
