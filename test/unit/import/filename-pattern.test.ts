import { describe, expect, it } from 'vitest';
import { compileFilenamePattern, matchFilename, previewPattern } from '../../../main/import/filename-pattern';
import type { CompiledPattern } from '../../../main/import/filename-pattern';

const compile = (pattern: string, timeZone?: string): CompiledPattern => {
  const r = compileFilenamePattern(pattern, timeZone === undefined ? {} : { timeZone });
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const compileError = (pattern: string): string => {
  const r = compileFilenamePattern(pattern);
  if (r.ok) throw new Error(`expected ${pattern} to be refused`);
  return r.error;
};

describe('compileFilenamePattern', () => {
  it('refuses unknown, duplicate and unclosed placeholders and patterns without {participant}', () => {
    expect(compileError('{participant}_{visit}.wav')).toContain('Unknown placeholder {visit}');
    expect(compileError('{participant}_{participant}.wav')).toContain('{participant} appears more than once');
    expect(compileError('{participant}_{date:YYYYMMDD}_{date:YYYY}.wav')).toContain(
      '{date} appears more than once',
    );
    expect(compileError('{session}_{date:YYYYMMDD}.wav')).toContain('needs a {participant}');
    expect(compileError('{participant.wav')).toContain('never closed');
    expect(compileError('{participant}}.wav')).toContain('without a matching');
    expect(compileError('')).toContain('empty');
  });

  it('refuses bad date and time formats', () => {
    expect(compileError('{participant}_{date}.wav')).toContain('{date} needs a format');
    expect(compileError('{participant}_{date:YYYYMM}.wav')).toContain('needs DD');
    expect(compileError('{participant}_{date:YYYYMMDDDD}.wav')).toContain('DD twice');
    expect(compileError('{participant}_{date:YYYYMMDD}_{time:HH}.wav')).toContain('needs mm');
    expect(compileError('{participant}_{time:HHmm}.wav')).toContain('{time} needs a {date}');
    expect(compileError('{participant:X}.wav')).toContain('takes no format');
    expect(compileFilenamePattern('{participant}.wav', { timeZone: 'Nowhere/Land' }).ok).toBe(false);
  });

  it('escapes regular-expression characters in literals', () => {
    const c = compile('{participant}(v1)+[a].wav');
    expect(matchFilename(c, 'P1(v1)+[a].wav')?.participantCode).toBe('P1');
    expect(matchFilename(c, 'P1v1a.wav')).toBeNull();
    expect(matchFilename(compile('{participant}.wav'), 'P1xwav')).toBeNull();
  });
});

describe('matchFilename', () => {
  it('reads participant, session and a compact date as midnight UTC', () => {
    const c = compile('{participant}_{session}_{date:YYYYMMDD}.wav');
    expect(matchFilename(c, 'P001_baseline_20240305.wav')).toEqual({
      participantCode: 'P001',
      session: 'baseline',
      recordedAt: '2024-03-05T00:00:00.000Z',
    });
    expect(matchFilename(c, 'P001_baseline_2024035.wav')).toBeNull();
    expect(matchFilename(c, 'P001_20240305.wav')).toBeNull();
  });

  it('reads a date with separators and a time, read as UTC without a zone', () => {
    const c = compile('{participant}-w{session}-{date:YYYY-MM-DD}_{time:HHmm}.wav');
    expect(matchFilename(c, 'P-07-w2-2024-03-05_0930.wav')).toEqual({
      participantCode: 'P-07',
      session: '2',
      recordedAt: '2024-03-05T09:30:00.000Z',
    });
  });

  it('reads the time in the given zone', () => {
    const c = compile('{participant}_{date:DD.MM.YYYY}_{time:HH-mm-ss}.wav', 'Europe/Berlin');
    expect(matchFilename(c, 'P1_15.07.2024_09-30-15.wav')?.recordedAt).toBe('2024-07-15T07:30:15.000Z');
    expect(matchFilename(c, 'P1_31.03.2024_02-30-00.wav')).toBeNull();
    // a date alone stays midnight UTC
    expect(
      matchFilename(compile('{participant}_{date:YYYYMMDD}.wav', 'Europe/Berlin'), 'P1_20240715.wav')
        ?.recordedAt,
    ).toBe('2024-07-15T00:00:00.000Z');
  });

  it('returns null without throwing for impossible dates and times', () => {
    const c = compile('{participant}_{date:YYYYMMDD}_{time:HHmm}.wav');
    for (const name of [
      'P1_20241301_0930.wav',
      'P1_20240230_0930.wav',
      'P1_20240305_2400.wav',
      'P1_20240305_0960.wav',
      'P1_00000305_0930.wav',
    ]) {
      expect(matchFilename(c, name), name).toBeNull();
    }
    expect(matchFilename(c, 'P1_20240229_2359.wav')?.recordedAt).toBe('2024-02-29T23:59:00.000Z');
  });

  it('handles *, letter case of literals, folders in the name and non-ASCII codes', () => {
    const c = compile('study*_{participant}_{date:YYYYMMDD}*.wav');
    expect(matchFilename(c, 'studyA_Zoë-Ø1_20240305_take2.WAV')).toEqual({
      participantCode: 'Zoë-Ø1',
      session: null,
      recordedAt: '2024-03-05T00:00:00.000Z',
    });
    expect(matchFilename(c, '/data/raw/study_P2_20240305.wav')?.participantCode).toBe('P2');
    expect(matchFilename(c, 'C:\\data\\study_P3_20240305.wav')?.participantCode).toBe('P3');
    expect(matchFilename(compile('{participant}.wav'), 'P1.mp3')).toBeNull();
  });

  it('gives the shortest participant when a name could split more than one way', () => {
    const c = compile('{participant}_{session}.wav');
    expect(matchFilename(c, 'A_B_C.wav')).toEqual({ participantCode: 'A', session: 'B_C', recordedAt: null });
  });
});

describe('previewPattern', () => {
  it('lists each file in order with its reading or the reason it does not match', () => {
    const c = compile('{participant}_{date:YYYYMMDD}.wav');
    expect(previewPattern(c, ['P1_20240305.wav', 'notes.txt', 'P2_20241332.wav'])).toEqual([
      {
        fileName: 'P1_20240305.wav',
        matched: true,
        participantCode: 'P1',
        session: null,
        recordedAt: '2024-03-05T00:00:00.000Z',
      },
      { fileName: 'notes.txt', matched: false, reason: 'does not match' },
      { fileName: 'P2_20241332.wav', matched: false, reason: 'does not match (not a real date or time)' },
    ]);
    expect(previewPattern(c, [])).toEqual([]);
  });
});
