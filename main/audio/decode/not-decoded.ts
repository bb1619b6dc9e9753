/**
 * The codecs this product recognises but does not decode, each with why, in a researcher's words.
 * Every decoder the product ships must have a licence that lets it ship in a closed installer with no
 * copyleft obligations; for these codecs no such decoder exists as a package this product can use.
 */
import type { DecodeProblem } from './decoder';

const AAC_ADVICE =
  'Convert the file to WAV or FLAC with a tool you trust (for example `ffmpeg -i <file> out.wav`) and import that copy.';

/** AAC (in MP4/M4A, 3GP, CAF or ADTS). */
export const aacNotDecoded = (container: string): DecodeProblem => ({
  code: 'no_decoder',
  detail:
    `This ${container} file holds AAC audio, which Voicescope recognises but cannot decode: every AAC decoder ` +
    'available to it is under the GPL or LGPL (FAAD2, FFmpeg) or a licence that is not free to ship (FDK), ' +
    `and Voicescope ships only permissively licensed decoders. ${AAC_ADVICE}`,
});

/** A codec this container may hold that no decoder here handles. */
export const codecNotDecoded = (container: string, codec: string): DecodeProblem => ({
  code: 'no_decoder',
  detail:
    `This ${container} file holds ${codec} audio, which Voicescope cannot decode. ` +
    'Convert the file to WAV or FLAC with a tool you trust and import that copy.',
});
