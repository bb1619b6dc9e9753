/**
 * The JSON columns of `recordings`, each decoded by one schema for every repository that reads it: the
 * local verdict of the import, the stored upload error (the service's refusal, a local reason or an
 * uncertain upload's record), the provenance notes curation writes; and the analyses of a recording
 * and of its batch, as the repositories read them.
 */
import { z } from 'zod';
import { ProvenanceNoteSchema } from '../../../shared/contract/curation.contract';
import { ConversionSchema, VerdictSchema } from '../../../shared/contract/views';
import { AnalysisType } from '../../../shared/api/vocabulary';
import { StoredUploadErrorSchema } from '../../../shared/recording-problems';
import { ANALYSIS_STATES } from '../../../shared/states';
import { jsonColumn } from '../json-column';

export const recordingVerdict = jsonColumn('recordings', 'verdict', VerdictSchema);
export const recordingUploadError = jsonColumn('recordings', 'upload_error', StoredUploadErrorSchema);
export const recordingProvenance = jsonColumn('recordings', 'provenance', z.array(ProvenanceNoteSchema));

/** A recording's analyses as `json_group_array(json_array(a.type, a.state))` reads them. */
export const recordingAnalysisStates = jsonColumn(
  'analyses',
  'type and state',
  z.array(z.tuple([AnalysisType, z.enum(ANALYSIS_STATES)])),
);

/** The analyses a batch asks for (`batches.analyses`). */
export const batchAnalyses = jsonColumn('batches', 'analyses', z.array(AnalysisType), { valuesRepeat: true });

/** The conversion inside the verdict (`json_extract(verdict, '$.conversion')`), as exports read it. */
export const recordingConversion = jsonColumn('recordings', 'verdict.conversion', ConversionSchema);
