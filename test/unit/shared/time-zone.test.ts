/** One answer, everywhere, to "is this a time zone?" (shared/time-zone.ts). */
import { describe, expect, it } from 'vitest';
import { ExportRequestSchema } from '../../../shared/export';
import { isTimeZone } from '../../../shared/time-zone';
import { compileFilenamePattern } from '../../../main/import/filename-pattern';
import { parseManifest } from '../../../main/import/manifest';

describe('isTimeZone', () => {
  it('knows IANA names, including UTC and the Etc zones', () => {
    for (const z of ['Europe/Berlin', 'America/New_York', 'UTC', 'Etc/GMT+1'])
      expect(isTimeZone(z)).toBe(true);
  });

  it('refuses names no runtime knows', () => {
    for (const z of ['Mars/Olympus_Mons', 'Berlin', ' UTC']) expect(isTimeZone(z)).toBe(false);
  });

  it('never takes a blank for a time zone', () => {
    for (const z of ['', ' ', '\t']) expect(isTimeZone(z)).toBe(false);
  });
});

describe('the places that ask', () => {
  it('the export request refuses a blank time zone', () => {
    expect(ExportRequestSchema.safeParse({ studyId: 1, timeZone: 'UTC' }).success).toBe(true);
    expect(ExportRequestSchema.safeParse({ studyId: 1, timeZone: ' ' }).success).toBe(false);
  });

  it('the manifest and the file-name pattern refuse a blank time zone given as one', () => {
    expect(parseManifest('file,participant\n/a.wav,P-1\n', { baseDir: '/', timeZone: ' ' }).ok).toBe(false);
    expect(parseManifest('file,participant\n/a.wav,P-1\n', { baseDir: '/', timeZone: 'UTC' }).ok).toBe(true);
    expect(compileFilenamePattern('{participant}.wav', { timeZone: ' ' }).ok).toBe(false);
    expect(compileFilenamePattern('{participant}.wav', {}).ok).toBe(true);
  });
});
