/** Where one recording's audio is on disk: the original and the converted copy that was sent, if any. */
import type { Queryable } from '../store/types';

export interface RecordingFiles {
  readonly sourcePath: string;
  readonly uploadPath: string | null;
  readonly sizeBytes: number;
  readonly contentSha256: string;
}

export const recordingFiles = async (q: Queryable, recordingId: number): Promise<RecordingFiles | null> => {
  const r = await q.get<{
    source_path: string;
    upload_path: string | null;
    size_bytes: number;
    content_sha256: string;
  }>(`SELECT source_path, upload_path, size_bytes, content_sha256 FROM recordings WHERE id = ?`, [
    recordingId,
  ]);
  return r
    ? {
        sourcePath: r.source_path,
        uploadPath: r.upload_path,
        sizeBytes: r.size_bytes,
        contentSha256: r.content_sha256,
      }
    : null;
};
