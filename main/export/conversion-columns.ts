/**
 * The converted copy's provenance in recordings.csv (and so in the wide file): what decoded the
 * original, which channel was sent, the rate it was resampled from and the copy's SHA-256, each its own
 * typed column so R, pandas, SPSS and Stata read them as they are. Every column is empty for a recording
 * sent as it is; `conversion_decoder`, `conversion_container` and `conversion_codec` are also empty for
 * copies made before every format went through a decoder (WAV files read directly).
 */
import type { ConversionView } from '../../shared/study';
import { recordingConversion } from '../db/repos/recording-columns';
import { col, type ExportColumn } from './column';
import type { RecordingCtx } from './schema/contexts';

const decoded = new WeakMap<object, ConversionView | null>();

/** The recording's conversion, decoded once per row however many columns read it. */
const conversionOf = (c: RecordingCtx): ConversionView | null => {
  const known = decoded.get(c.r);
  if (known !== undefined) return known;
  const value = c.r.converted === 1 ? recordingConversion.decodeOrNull(c.r.conversion) : null;
  decoded.set(c.r, value);
  return value;
};

const EMPTY_WHEN = 'Empty when the original was sent as it is.';

export const conversionColumns = <C extends RecordingCtx>(): ExportColumn<C>[] => [
  col<C>(
    'converted_sha256',
    'string',
    'Converted copy SHA-256',
    `SHA-256 of the converted copy's bytes (hexadecimal): the file that was uploaded instead of the original. ${EMPTY_WHEN}`,
    (c) => conversionOf(c)?.sha256 ?? null,
  ),
  col<C>(
    'conversion_decoder',
    'string',
    'Decoder of the original',
    `What decoded the original to make the converted copy: Voicescope's own reader (WAV, FLAC, AIFF, CAF) or a named package with its version (MP3, Ogg, WebM, MP4). ${EMPTY_WHEN}`,
    (c) => conversionOf(c)?.decodedBy?.decoder ?? null,
  ),
  col<C>(
    'conversion_container',
    'string',
    'Container of the original',
    `The original's container as its decoder read it (wav, flac, aiff, caf, mp3, mp4, ogg, webm). ${EMPTY_WHEN}`,
    (c) => conversionOf(c)?.decodedBy?.container ?? null,
  ),
  col<C>(
    'conversion_codec',
    'string',
    'Coding of the original',
    `The original's audio coding as its decoder read it (e.g. pcm, float, mulaw, ima-adpcm, flac, mp3, opus, vorbis). ${EMPTY_WHEN}`,
    (c) => conversionOf(c)?.decodedBy?.codec ?? null,
  ),
  col<C>(
    'conversion_channel',
    'integer',
    'Channel sent',
    `The original's channel the converted copy holds (1 is the first). Empty when the copy is the mean of the channels (conversion_mix is true). ${EMPTY_WHEN}`,
    (c) => {
      const ch = conversionOf(c)?.channel;
      return typeof ch === 'number' ? ch : null;
    },
  ),
  col<C>(
    'conversion_mix',
    'boolean',
    'Channels averaged',
    `true: the converted copy is the mean of all the original's channels, as the researcher asked; false: one channel was sent (conversion_channel). ${EMPTY_WHEN}`,
    (c) => {
      const conv = conversionOf(c);
      return conv === null ? null : conv.channel === 'mix';
    },
  ),
  col<C>(
    'conversion_resampled_from_hz',
    'integer',
    'Resampled from',
    `The original's sample rate, resampled to the copy's 16,000 Hz. Empty when the original was at 16,000 Hz already. ${EMPTY_WHEN}`,
    (c) => conversionOf(c)?.resampledFromHz ?? null,
    { unit: 'Hz' },
  ),
];
