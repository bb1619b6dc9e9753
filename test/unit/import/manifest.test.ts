import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestTemplate, parseManifest, parseRecordedAt } from '../../../main/import/manifest';
import { zonedWallTimeToUtc } from '../../../main/wall-time';
import type { ManifestParse, ManifestProblem } from '../../../main/import/manifest';

const BASE = resolve('/study/manifests');
const okParse = (text: string, timeZone?: string): ManifestParse => {
  const r = parseManifest(text, timeZone === undefined ? { baseDir: BASE } : { baseDir: BASE, timeZone });
  if (!r.ok) throw new Error(`expected ok, got ${r.error.message}`);
  return r.value;
};
const problemOf = (text: string, timeZone?: string): ManifestProblem => {
  const r = parseManifest(text, timeZone === undefined ? { baseDir: BASE } : { baseDir: BASE, timeZone });
  if (r.ok) throw new Error('expected a problem');
  return r.error;
};

describe('parseManifest: structure', () => {
  it('reads a plain comma manifest and resolves relative paths against the manifest folder', () => {
    const m = okParse('file,participant,recorded_at,session\nrec/a.wav,P001,2024-03-05T09:30:00Z,baseline\n');
    expect(m.rows).toEqual([
      {
        line: 2,
        filePath: join(BASE, 'rec', 'a.wav'),
        participantCode: 'P001',
        recordedAt: '2024-03-05T09:30:00.000Z',
        session: 'baseline',
      },
    ]);
    expect(m.rowErrors).toEqual([]);
    expect(m.notices).toEqual([]);
  });

  it('keeps absolute paths and normalises dot segments', () => {
    const abs = resolve('/data/x/../y/b.wav');
    const m = okParse(`file,participant\n${resolve('/data/x')}/../y/b.wav,P1\n../other/./c.wav,P2\n`);
    expect(m.rows.map((r) => r.filePath)).toEqual([abs, resolve(BASE, '..', 'other', 'c.wav')]);
  });

  it('matches headers case-insensitively with spaces, ignores and lists unknown columns, optional columns may be absent', () => {
    const m = okParse(' FILE ;Participant ; Notes;site\na.wav; P7 ;x;y\n');
    expect(m.rows).toEqual([
      { line: 2, filePath: join(BASE, 'a.wav'), participantCode: 'P7', recordedAt: null, session: null },
    ]);
    expect(m.notices).toEqual(['Ignored columns not used by the import: Notes, site.']);
  });

  it('handles a BOM, CRLF line ends and semicolons, with commas inside fields', () => {
    const m = okParse('\uFEFFfile;participant;session\r\na,1.wav;P,1;week 1, morning\r\n');
    expect(m.rows[0]).toMatchObject({
      filePath: join(BASE, 'a,1.wav'),
      participantCode: 'P,1',
      session: 'week 1, morning',
      line: 2,
    });
  });

  it('detects the delimiter from the header line only, ignoring quoted delimiters', () => {
    // commas outside quotes win, so "file;x" is one (unknown) column name
    expect(problemOf('"file;x",participant\nf.wav,P1\n').kind).toBe('missing_columns');
    expect(okParse('"a,b";file;participant\nx;f.wav;P1\n').rows[0]?.participantCode).toBe('P1');
  });

  it('reads quoted values with quotes, newlines and non-ASCII, and numbers later lines by where they start', () => {
    const text =
      'file,participant,session\n"a.wav","Zoë ""Z"" Ørsted","line one\r\nline two"\r\n\r\nb.wav,  參加者-03 ,\n,P9,\n';
    const m = okParse(text);
    expect(m.rows[0]).toMatchObject({
      line: 2,
      participantCode: 'Zoë "Z" Ørsted',
      session: 'line one\r\nline two',
    });
    expect(m.rows[1]).toMatchObject({ line: 5, participantCode: '參加者-03', session: null });
    expect(m.rowErrors).toEqual([{ line: 6, message: expect.stringContaining('file is empty') }]);
  });

  it('refuses a manifest without a required column, naming it and the known columns found (others only counted)', () => {
    const p = problemOf('path,participant,notes\na.wav,P1,x\n');
    expect(p.kind).toBe('missing_columns');
    expect(p.message).toContain('"file"');
    expect(p.message).toContain('Columns found: "participant" and 2 other columns.');
    expect(p.message).not.toContain('path');
    expect(p.columnsFound).toEqual(['participant']);
    const both = problemOf('name;code\r\n');
    expect(both.message).toContain('"file" and "participant" columns');
  });

  it('refuses empty text, a lone BOM, duplicated columns, unclosed quotes and unknown zones', () => {
    expect(problemOf('').kind).toBe('empty');
    expect(problemOf('\uFEFF\r\n  \r\n').kind).toBe('empty');
    expect(problemOf('file,participant,File\na,b,c\n').kind).toBe('duplicate_columns');
    expect(problemOf('file,participant\n"a.wav,P1\n').kind).toBe('malformed_csv');
    expect(problemOf('file,participant\n', 'Mars/Olympus').kind).toBe('invalid_time_zone');
  });

  it('accepts a header with no rows', () => {
    expect(okParse('file,participant\r\n')).toEqual({ rows: [], rowErrors: [], notices: [] });
  });
});

describe('parseManifest: row errors', () => {
  it('reports empty participants, empty files and bad dates with line numbers, and keeps good rows', () => {
    const m = okParse(
      'file,participant,recorded_at\na.wav,,\n,P2,\nc.wav,P3,2024-13-01\nd.wav,P4,yesterday\ne.wav,P5,2023-02-29\nf.wav,P6,2024-02-29\n',
    );
    expect(m.rows.map((r) => [r.line, r.participantCode, r.recordedAt])).toEqual([
      [7, 'P6', '2024-02-29T00:00:00.000Z'],
    ]);
    expect(m.rowErrors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6]);
    expect(m.rowErrors[0]?.message).toBe('Line 2: The participant code is empty.');
    expect(m.rowErrors[2]?.message).toContain('2024-13-01');
    expect(m.rowErrors[3]?.message).toContain('"yesterday" is not a date');
  });

  it('flags a duplicate file on the later line, also when written differently', () => {
    const m = okParse(`file,participant\na.wav,P1\nb.wav,P2\n./x/../a.wav,P3\n${join(BASE, 'b.wav')},P4\n`);
    expect(m.rows.map((r) => r.participantCode)).toEqual(['P1', 'P2']);
    expect(m.rowErrors).toEqual([
      { line: 4, message: 'Line 4: The file "./x/../a.wav" is already listed on line 2.' },
      { line: 5, message: expect.stringContaining('already listed on line 3') },
    ]);
  });

  it('combines several problems of one row into one message', () => {
    const m = okParse('file,participant,recorded_at\na.wav, ,nope\n');
    expect(m.rowErrors).toHaveLength(1);
    expect(m.rowErrors[0]?.message).toMatch(/participant code is empty; the recorded_at value "nope"/);
  });

  it('treats rows shorter than the header as empty cells', () => {
    const m = okParse('file,participant,session\na.wav,P1\nb.wav\n');
    expect(m.rows).toEqual([
      { line: 2, filePath: join(BASE, 'a.wav'), participantCode: 'P1', recordedAt: null, session: null },
    ]);
    expect(m.rowErrors[0]?.line).toBe(3);
  });
});

describe('recorded_at', () => {
  it('reads Z, offsets, fractions, a space for T and plain dates', () => {
    expect(parseRecordedAt('2024-03-05T09:30:00Z')).toEqual({ ok: true, value: '2024-03-05T09:30:00.000Z' });
    expect(parseRecordedAt('2024-03-05T09:30:00+01:00')).toEqual({
      ok: true,
      value: '2024-03-05T08:30:00.000Z',
    });
    expect(parseRecordedAt('2024-03-05 23:30-0530')).toEqual({ ok: true, value: '2024-03-06T05:00:00.000Z' });
    expect(parseRecordedAt('2024-03-05T09:30:00.25Z')).toEqual({
      ok: true,
      value: '2024-03-05T09:30:00.250Z',
    });
    expect(parseRecordedAt('2024-03-05')).toEqual({ ok: true, value: '2024-03-05T00:00:00.000Z' });
  });

  it('refuses impossible values and local times without a zone', () => {
    for (const v of [
      '2024-02-30',
      '2024-03-05T24:00:00Z',
      '2024-03-05T09:60Z',
      '2024-03-05T09:30+25:00',
      '05/03/2024',
      '2024-3-5',
    ]) {
      expect(parseRecordedAt(v).ok, v).toBe(false);
    }
    const r = parseRecordedAt('2024-03-05 09:30');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('no time zone');
  });

  it('reads local times in the given IANA zone, across daylight saving', () => {
    expect(parseRecordedAt('2024-01-15 09:30', 'Europe/Berlin')).toEqual({
      ok: true,
      value: '2024-01-15T08:30:00.000Z',
    });
    expect(parseRecordedAt('2024-07-15T09:30:15', 'Europe/Berlin')).toEqual({
      ok: true,
      value: '2024-07-15T07:30:15.000Z',
    });
    expect(parseRecordedAt('2024-07-15 09:30', 'America/New_York')).toEqual({
      ok: true,
      value: '2024-07-15T13:30:00.000Z',
    });
    expect(parseRecordedAt('2024-07-15 09:30', 'Asia/Kolkata')).toEqual({
      ok: true,
      value: '2024-07-15T04:00:00.000Z',
    });
    // an explicit offset wins over the zone; a plain date stays midnight UTC
    expect(parseRecordedAt('2024-07-15T09:30Z', 'Europe/Berlin')).toEqual({
      ok: true,
      value: '2024-07-15T09:30:00.000Z',
    });
    expect(parseRecordedAt('2024-07-15', 'Europe/Berlin')).toEqual({
      ok: true,
      value: '2024-07-15T00:00:00.000Z',
    });
  });

  it('refuses a local time skipped by the clocks and takes the earlier of a repeated one', () => {
    const gap = parseRecordedAt('2024-03-31 02:30', 'Europe/Berlin');
    expect(gap.ok).toBe(false);
    if (!gap.ok) expect(gap.error).toContain('does not exist in Europe/Berlin');
    expect(parseRecordedAt('2024-10-27 02:30', 'Europe/Berlin')).toEqual({
      ok: true,
      value: '2024-10-27T00:30:00.000Z',
    });
    expect(
      zonedWallTimeToUtc(
        { year: 2024, month: 11, day: 3, hour: 1, minute: 30, second: 0 },
        'America/New_York',
      ),
    ).toBe(Date.parse('2024-11-03T05:30:00Z'));
  });

  it('applies the zone through parseManifest', () => {
    const m = okParse(
      'file,participant,recorded_at\na.wav,P1,2024-01-15 09:30\nb.wav,P2,2024-03-31 02:30\n',
      'Europe/Berlin',
    );
    expect(m.rows[0]?.recordedAt).toBe('2024-01-15T08:30:00.000Z');
    expect(m.rowErrors).toEqual([{ line: 3, message: expect.stringContaining('daylight saving') }]);
  });
});

describe('manifestTemplate', () => {
  it('has a header and two example rows with CRLF line ends', () => {
    const t = manifestTemplate();
    const lines = t.split('\r\n');
    expect(lines[0]).toBe('file,participant,recorded_at,session');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(t.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('parses back cleanly', () => {
    const m = okParse(manifestTemplate());
    expect(m.rowErrors).toEqual([]);
    expect(m.notices).toEqual([]);
    expect(m.rows).toHaveLength(2);
    expect(m.rows[0]).toEqual({
      line: 2,
      filePath: join(BASE, 'recordings', 'P001_baseline.wav'),
      participantCode: 'P001',
      recordedAt: '2024-03-05T09:30:00.000Z',
      session: 'baseline',
    });
    expect(m.rows[1]?.recordedAt).toBe('2024-04-02T00:00:00.000Z');
  });
});

describe('parseManifest: session labels trimmed', () => {
  it('stores a label without its outer spaces and warns in the preview, naming the line', () => {
    const m = okParse('file,participant,session\na.wav,P1, week 4 \nb.wav,P2,week 4\nc.wav,P3,   \n');
    expect(m.rows.map((r) => r.session)).toEqual(['week 4', 'week 4', null]);
    expect(m.notices).toEqual([
      'Warning: a session label had spaces at the start or end, which were removed: line 2 (" week 4 " became "week 4"). Check that the labels still match those of earlier imports.',
    ]);
  });

  it('says no more when no label was changed, and counts many without listing them all', () => {
    expect(okParse('file,participant,session\na.wav,P1,week 4\n').notices).toEqual([]);
    const rows = Array.from({ length: 7 }, (_, i) => `f${i}.wav,P${i},s1 `).join('\n');
    const [notice] = okParse(`file,participant,session\n${rows}\n`).notices;
    expect(notice).toMatch(
      /^Warning: 7 session labels had spaces .* line 6 \("s1 " became "s1"\) and 2 more\./,
    );
  });
});
