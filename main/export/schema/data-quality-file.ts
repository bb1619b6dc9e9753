/**
 * data_quality.csv: one row per data-quality flag of a recording.
 */
import { DATA_QUALITY, DATA_QUALITY_CODES } from '../../../shared/api/data-quality';
import { ANALYSIS_TYPES } from '../../../shared/api/vocabulary';
import { col } from '../column';
import { type FlagCtx } from './contexts';
import { type ExportFile, file } from './file';

export const DATA_QUALITY_FILE = 'data_quality.csv';

export const dataQualityFile = (): ExportFile<FlagCtx> =>
  file(
    DATA_QUALITY_FILE,
    'provenance',
    'Data-quality flags',
    'one data-quality flag of a recording',
    'Everything the service sent that departs from its specification, for the exported recordings: each value is kept as received, and each departure is listed here with where it was, what came and what the specification expects. The codebook lists every code with its meaning. Written with a header even when there are no flags.',
    ['recording', 'flag'],
    [
      col<FlagCtx>(
        'recording',
        'integer',
        'Recording',
        "The workstation's number for the recording.",
        (c) => c.recording,
        {
          required: true,
        },
      ),
      col<FlagCtx>(
        'flag',
        'integer',
        'Flag number',
        'Number of the flag within its recording, from 1.',
        (c) => c.n,
        {
          required: true,
        },
      ),
      col<FlagCtx>(
        'origin',
        'string',
        'Origin',
        "receipt: the service's answer to the upload; receipt_check: the receipt compared with what was sent and with the workstation's own reading of the file; poll: an answer with analysis results.",
        (c) => c.flag.origin,
        { enum: ['receipt', 'receipt_check', 'poll'], required: true },
      ),
      col<FlagCtx>(
        'analysis',
        'string',
        'Analysis type',
        'The analysis type the flag belongs to; empty for the recording itself (metadata, receipt, unknown analysis types).',
        (c) => c.flag.analysisType,
        { enum: [...ANALYSIS_TYPES] },
      ),
      col<FlagCtx>(
        'code',
        'string',
        'Code',
        'What is odd (see "Data-quality flags" in the codebook).',
        (c) => c.flag.code,
        {
          enum: [...DATA_QUALITY_CODES],
          required: true,
        },
      ),
      col<FlagCtx>(
        'meaning',
        'string',
        'Meaning',
        "The code's meaning, in words.",
        (c) => DATA_QUALITY[c.flag.code].meaning,
        {
          required: true,
        },
      ),
      col<FlagCtx>(
        'path',
        'string',
        'Where',
        "Where in the service's answer, in the specification's names (e.g. analysis.parkinsons.insights.parkinsons.score).",
        (c) => c.flag.path,
        { required: true, neutralised: true },
      ),
      col<FlagCtx>(
        'measures',
        'string',
        'Measures',
        'The measures (catalogue keys, the `measure` of the long form) the flag is about, separated by spaces; empty when it is about no stored measure.',
        (c) => (c.flag.measures.length === 0 ? null : c.flag.measures.join(' ')),
      ),
      col<FlagCtx>(
        'received',
        'string',
        'Received',
        'What the service sent there, as JSON text (cut at 2,000 characters); empty when it sent nothing.',
        (c) => c.flag.received,
        { neutralised: true },
      ),
      col<FlagCtx>(
        'expected',
        'string',
        'Expected',
        'What the specification (or our documented reading of it) expects there.',
        (c) => c.flag.expected,
        {
          required: true,
          neutralised: true,
        },
      ),
    ],
  );
