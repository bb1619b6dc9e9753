/** The wire schemas of each version, looked up by version so callers never branch on it. */
import {
  AccountV12,
  AnalysisResponseV12,
  ErrorV12,
  RecordingV12,
  UploadRequestV12,
  UsageV12,
} from './wire-v12';
import {
  AccountV13,
  AnalysisResponseV13,
  ErrorV13,
  RecordingV13,
  UploadRequestV13,
  UsageV13,
} from './wire-v13';

export const WIRE = {
  'v1.3': {
    account: AccountV13,
    uploadRequest: UploadRequestV13,
    recording: RecordingV13,
    analysis: AnalysisResponseV13,
    usage: UsageV13,
    error: ErrorV13,
  },
  'v1.2': {
    account: AccountV12,
    uploadRequest: UploadRequestV12,
    recording: RecordingV12,
    analysis: AnalysisResponseV12,
    usage: UsageV12,
    error: ErrorV12,
  },
} as const;
