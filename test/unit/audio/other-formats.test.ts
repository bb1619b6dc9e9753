/**
 * Formats the service does not take are named from their first bytes (not their extension), each with
 * what to do: FLAC, AIFF, AIFF-C, WebM, Matroska audio, WMA, CAF, AMR, AU, APE, WavPack.
 */
import { describe, expect, it } from 'vitest';
import { recogniseOtherFormat } from '../../../main/audio/other-formats';
import { probeAudio } from '../../../main/audio/probe';
import { verdictFromProblem } from '../../../main/import/local-verdict';

const text = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};
const u8 = (...b: number[]) => Uint8Array.from(b);
/** The start of an EBML (Matroska) file whose DocType is `doc`. */
const ebml = (doc: string) =>
  join(
    u8(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01),
    u8(0x42, 0x82, 0x80 | doc.length),
    text(doc),
  );

const HEADS: [string, Uint8Array][] = [
  ['FLAC', join(text('fLaC'), u8(0, 0, 0, 34))],
  ['AIFF', join(text('FORM'), u8(0, 0, 1, 0), text('AIFFCOMM'))],
  ['AIFF-C', join(text('FORM'), u8(0, 0, 1, 0), text('AIFCFVER'))],
  ['WebM', ebml('webm')],
  ['Matroska (MKA)', ebml('matroska')],
  ['Windows Media Audio (WMA/ASF)', u8(0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9)],
  ['Core Audio (CAF)', join(text('caff'), u8(0, 1, 0, 0))],
  ['AMR (phone voice memo)', text('#!AMR\n')],
  ['Sun/NeXT audio (AU)', join(text('.snd'), u8(0, 0, 0, 24))],
  ["Monkey's Audio (APE)", join(text('MAC '), u8(0x96, 0x0f))],
  ['WavPack', join(text('wvpk'), u8(0, 0, 0, 0))],
];

describe('formats the service does not take', () => {
  it.each(HEADS)('names %s from its first bytes and says to export WAV', (name, head) => {
    const f = recogniseOtherFormat(head);
    expect(f?.name).toBe(name);
    expect(f?.action).toMatch(/export it as WAV/);
  });

  it('names nothing for the formats the service takes, nor for other files', () => {
    expect(recogniseOtherFormat(join(text('RIFF'), u8(0, 0, 0, 0), text('WAVE')))).toBeNull();
    expect(recogniseOtherFormat(text('OggS\0'))).toBeNull();
    expect(recogniseOtherFormat(text('hello, world'))).toBeNull();
    expect(recogniseOtherFormat(new Uint8Array(0))).toBeNull();
  });

  it('the verdict refuses the file, naming its format and what to do', async () => {
    const r = await probeAudio(join(text('fLaC'), new Uint8Array(4000)));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({
      code: 'unsupported_format',
      message: "The file's format is FLAC; the service does not take FLAC.",
    });
    const v = verdictFromProblem(r.error);
    expect(v.status).toBe('refused');
    expect(v.findings[0]).toMatchObject({ code: 'unsupported_format', severity: 'refuse' });
    expect(v.findings[0]!.action).toMatch(/ffmpeg -i <file> -ac 1 -c:a pcm_s16le/);
  });
});
