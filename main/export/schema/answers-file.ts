/**
 * answers_as_received.csv: every analysis object exactly as the service last sent it.
 */
import { col } from '../column';
import { type AnswerCtx } from './contexts';
import { type ExportFile, file } from './file';

export const ANSWERS_FILE = 'answers_as_received.csv';

/** Said of every value the specification does not describe, wherever it is shown. */
export const NOT_IN_SPECIFICATION = 'reported by the service, not described by the specification';

export const answersFile = (): ExportFile<AnswerCtx> =>
  file(
    ANSWERS_FILE,
    'provenance',
    'Analysis answers as received',
    'one analysis object of a recording, as the service last sent it',
    `Every analysis object the service sent for the exported recordings, exactly as received (JSON), unknown members included, so no value is lost: also values sent with an analysis not yet completed, and analysis types the specification does not describe for the API version (marked "${NOT_IN_SPECIFICATION}").`,
    ['recording', 'analysis'],
    [
      col<AnswerCtx>(
        'recording',
        'integer',
        'Recording',
        "The workstation's number for the recording.",
        (c) => c.answer.recordingId,
        {
          required: true,
        },
      ),
      col<AnswerCtx>(
        'analysis',
        'string',
        'Analysis type',
        'The analysis type as the service named it.',
        (c) => c.answer.name,
        { required: true, neutralised: true },
      ),
      col<AnswerCtx>(
        'described',
        'boolean',
        'Described by the specification',
        `false: an analysis type this API version does not list, ${NOT_IN_SPECIFICATION}; its values are only here.`,
        (c) => c.answer.listed,
        { required: true },
      ),
      col<AnswerCtx>(
        'note',
        'string',
        'Note',
        `"${NOT_IN_SPECIFICATION}" for an analysis type the specification does not describe; empty otherwise.`,
        (c) => (c.answer.listed ? null : NOT_IN_SPECIFICATION),
      ),
      col<AnswerCtx>(
        'status_received',
        'string',
        'Status as received',
        'The `status` member exactly as received (JSON text when it was not a string); empty when absent.',
        (c) => c.answer.receivedStatus,
        { neutralised: true },
      ),
      col<AnswerCtx>(
        'raw_json',
        'string',
        'As received (JSON)',
        'The analysis object exactly as received, as JSON text.',
        (c) => c.answer.raw,
        { required: true, neutralised: true },
      ),
    ],
  );
