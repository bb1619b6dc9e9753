/** Byte ranges for the recording player (main/rpc/ranged-file.ts) and the session tickets that reach them. */
import { describe, expect, it } from 'vitest';
import { createDownloadTickets } from '../../../main/rpc/export-downloads';
import { rangedHeaders, rangeOf } from '../../../main/rpc/ranged-file';
import { parseMediaPath, mediaPath } from '../../../shared/media';

describe('a Range header', () => {
  it('asks for the whole file when absent, in another unit, or for several ranges', () => {
    expect(rangeOf(undefined, 100)).toBeNull();
    expect(rangeOf('items=0-5', 100)).toBeNull();
    expect(rangeOf('bytes=0-5,10-20', 100)).toBeNull();
  });
  it('reads a-b, a- and -n, clipped to the file', () => {
    expect(rangeOf('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(rangeOf('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });
  it('cannot be met past the end of the file', () => {
    expect(rangeOf('bytes=100-', 100)).toBe('unsatisfiable');
    expect(rangeOf('bytes=5-2', 100)).toBe('unsatisfiable');
    expect(rangedHeaders('unsatisfiable', 100, 'audio/wav')).toEqual({
      status: 416,
      headers: { 'Content-Range': 'bytes */100', 'Accept-Ranges': 'bytes' },
    });
  });
  it('is answered 206 with Content-Range, or 200 with the whole length', () => {
    expect(rangedHeaders({ start: 10, end: 19 }, 100, 'audio/wav')).toEqual({
      status: 206,
      headers: {
        'Content-Type': 'audio/wav',
        'Accept-Ranges': 'bytes',
        'Content-Length': '10',
        'Content-Range': 'bytes 10-19/100',
      },
    });
    expect(rangedHeaders(null, 100, 'audio/wav').status).toBe(200);
  });
});

describe('a media address', () => {
  it('names one recording and one source, and nothing else', () => {
    expect(parseMediaPath(mediaPath(12, 'sent'))).toEqual({ recordingId: 12, which: 'sent' });
    expect(parseMediaPath('/media/recordings/0/original')).toBeNull();
    expect(parseMediaPath('/media/recordings/1/../../etc')).toBeNull();
    expect(parseMediaPath('/media/recordings/1/other')).toBeNull();
  });
});

describe('a session ticket', () => {
  it('opens its one path any number of times while used, and nothing after 30 idle minutes', () => {
    let clock = 0;
    const tickets = createDownloadTickets({ now: () => clock });
    const t = tickets.issue('/download/media/recordings/1/original', { session: true });
    expect(tickets.redeem(t, '/download/media/recordings/1/original')).toBe(true);
    clock += 29 * 60_000;
    expect(tickets.redeem(t, '/download/media/recordings/1/original')).toBe(true);
    expect(tickets.redeem(t, '/download/media/recordings/2/original')).toBe(false);
    clock += 29 * 60_000;
    expect(tickets.redeem(t, '/download/media/recordings/1/original')).toBe(true);
    clock += 31 * 60_000;
    expect(tickets.redeem(t, '/download/media/recordings/1/original')).toBe(false);
  });
  it('leaves one-time tickets one-time', () => {
    const tickets = createDownloadTickets();
    const t = tickets.issue('/download/exports/x.zip');
    expect(tickets.redeem(t, '/download/exports/x.zip')).toBe(true);
    expect(tickets.redeem(t, '/download/exports/x.zip')).toBe(false);
  });
});
