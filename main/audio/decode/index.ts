/**
 * Opening any recording the product decodes: the file's first bytes name the format (the first entry
 * of `DECODABLE_FORMATS` that recognises them), which then opens it.
 */
import { err, type Result } from '../../../shared/result';
import type { AudioDecoder, DecodeProblem } from './decoder';
import { readFileHead } from './file-blocks';
import { id3v2TagEnd } from '../id3-tag';
import { DECODABLE_FORMATS } from './formats';

/** How many of the file's first bytes every format's `recognise` is shown. */
export const HEAD_BYTES = 4096;

/** The longest ID3v2 tag read past to find what follows it. */
const LONGEST_TAG_BYTES = 64 << 20;

export const openAudioDecoder = async (path: string): Promise<Result<AudioDecoder, DecodeProblem>> => {
  let head: Uint8Array;
  try {
    head = (await readFileHead(path, HEAD_BYTES)).head;
    // A long ID3v2 tag (cover art) hides the audio's first bytes: read on to just past it.
    const tagEnd = id3v2TagEnd(head);
    if (tagEnd + 64 > head.length && tagEnd > 0 && tagEnd <= LONGEST_TAG_BYTES)
      head = (await readFileHead(path, tagEnd + 64)).head;
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
