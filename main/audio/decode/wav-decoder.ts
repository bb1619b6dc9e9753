/**
 * WAV (RIFF, RF64, BW64) in every encoding met in practice: integer PCM of 1–32 bits, 32- and 64-bit
 * float, WAVE_FORMAT_EXTENSIBLE, G.711 A-law and µ-law, IMA ADPCM and Microsoft ADPCM. The header is
 * read by the one WAV header parser (../wav.ts); the samples are read block by block from the file.
 */
import { err, ok, type Result } from '../../../shared/result';
import { framesIn, parseWavHeader, type WavInfo } from '../wav';
import { decodeImaBlock, decodeMsBlock } from './adpcm';
import type { AudioDecoder, DecodableFormat, DecodeProblem, PcmChunk } from './decoder';
import { parseFileHead, readFileBlocks } from './file-blocks';
import { interleavedDecoder } from './interleaved-decoder';
import type { SampleEncoding } from './pcm-samples';

export const WAV_DECODER = 'Voicescope WAV reader (RIFF/RF64; G.711; IMA and Microsoft ADPCM)';

const ascii = (b: Uint8Array, at: number, text: string): boolean =>
  [...text].every((ch, i) => b[at + i] === ch.charCodeAt(0));

const recognise = (head: Uint8Array): boolean =>
  (ascii(head, 0, 'RIFF') || ascii(head, 0, 'RF64') || ascii(head, 0, 'BW64') || ascii(head, 0, 'RIFX')) &&
  ascii(head, 8, 'WAVE');

const encodingOf = (info: WavInfo): SampleEncoding => {
  if (info.codec === 'alaw' || info.codec === 'mulaw') return { kind: info.codec, bytes: 1 };
  const width = info.blockAlign / info.channels;
  if (info.codec === 'float') return { kind: 'float', bytes: width === 8 ? 8 : 4, bigEndian: false };
  return { kind: 'int', bytes: width as 1 | 2 | 3 | 4, bigEndian: false, unsigned8: true };
};

/** The blocks of one read joined into one chunk per channel. */
const joined = (parts: readonly Float32Array[][], channels: number): PcmChunk => {
  const total = parts.reduce((n, p) => n + p[0]!.length, 0);
  const out = Array.from({ length: channels }, () => new Float32Array(total));
  let at = 0;
  for (const p of parts) {
    for (let c = 0; c < channels; c++) out[c]!.set(p[c]!, at);
    at += p[0]!.length;
  }
  return { channels: out };
};

async function* adpcmChunks(path: string, info: WavInfo): AsyncGenerator<PcmChunk> {
  const layout = info.adpcm!;
  const align = info.blockAlign;
  let left = info.frames;
  for await (const bytes of readFileBlocks(path, info.dataOffset, info.dataBytes, align)) {
    const parts: Float32Array[][] = [];
    for (let at = 0; at < bytes.length && left > 0; at += align) {
      const block = bytes.subarray(at, Math.min(bytes.length, at + align));
      const samples = Math.min(left, framesIn(info, block.length));
      if (samples <= 0) break;
      parts.push(
        info.codec === 'ima-adpcm'
          ? decodeImaBlock(block, info.channels, samples)
          : decodeMsBlock(block, info.channels, samples, layout.coefficients),
      );
      left -= samples;
    }
    if (parts.length > 0) yield joined(parts, info.channels);
  }
}

const problemOf = (code: string, detail: string): DecodeProblem => ({
  code: code === 'unsupported_codec' ? 'no_decoder' : 'corrupt',
  detail,
});

const readHeader = (path: string): Promise<Result<WavInfo, DecodeProblem>> =>
  parseFileHead<Result<WavInfo, DecodeProblem>>(
    path,
    (head, size) => {
      const parsed = parseWavHeader(head, size, { companded: true });
      if (parsed.ok) return parsed;
      const more = (parsed.error.code === 'no_data' || parsed.error.code === 'no_fmt') && size > head.length;
      return more ? null : err(problemOf(parsed.error.code, parsed.error.detail));
    },
    err({ code: 'corrupt', detail: 'This WAV file has no audio data in its first 64 MB, so it is damaged.' }),
  );

const open = async (path: string): Promise<Result<AudioDecoder, DecodeProblem>> => {
  const header = await readHeader(path);
  if (!header.ok) return header;
  const info = header.value;
  const stream = {
    container: 'wav',
    codec: info.codec,
    sampleRateHz: info.sampleRateHz,
    channels: info.channels,
    decoder: WAV_DECODER,
  };
  if (info.adpcm === undefined)
    return ok(
      interleavedDecoder(
        path,
        { dataOffset: info.dataOffset, frames: info.frames, encoding: encodingOf(info) },
        stream,
      ),
    );
  return ok({
    info: { ...stream, durationSeconds: info.durationSeconds },
    chunks: () => adpcmChunks(path, info),
  });
};

export const WAV_FORMAT: DecodableFormat = { name: 'WAV', recognise, open };
