/**
 * Opening any recording the product decodes: the file's first bytes name the format (the first entry
 * of `DECODABLE_FORMATS` that recognises them), which then opens it.
 */
import { err, type Result } from '../../../shared/result';
import type { AudioDecoder, DecodeProblem } from './decoder';
import { readFileHead } from './file-blocks';
import { DECODABLE_FORMATS } from './formats';

/** How many of the file's first bytes every format's `recognise` is shown. */
export const HEAD_BYTES = 4096;

export const openAudioDecoder = async (path: string): Promise<Result<AudioDecoder, DecodeProblem>> => {
  let head: Uint8Array;
  try {
    head = (await readFileHead(path, HEAD_BYTES)).head;
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'it is not there' : 'it cannot be read';
    return err({ code: 'unreadable', detail: `The file could not be opened: ${why}.` });
  }
  if (head.length === 0)
    return err({ code: 'unknown_format', detail: 'The file is empty, so there is no audio to decode.' });
  const format = DECODABLE_FORMATS.find((f) => f.recognise(head));
  if (format === undefined)
    return err({
      code: 'unknown_format',
      detail:
        'The file is not in an audio format Voicescope can decode (its first bytes match none of them); it may not be audio, or it may be damaged.',
    });
  return format.open(path, head);
};
