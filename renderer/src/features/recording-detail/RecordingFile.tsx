/**
 * The recording page's "File" section: the original file and what was sent, its hash, when it was
 * recorded and where that date came from, the duplicate it repeats, the service's id and answer, and
 * the audio measured locally beside what the service reported.
 */
import { Link } from 'wouter';
import { explainApiError } from '../../../../shared/api/api-error-explained';
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import type { ConversionView } from '../../../../shared/study';
import { Section } from '../../components/Page';
import { TableScroll } from '../../components/TableScroll';
import { fmtDateTime, fmtInt, fmtLongDateTime } from '../../lib/format';
import { paths } from '../../app/paths';
import { DATE_SOURCE, conversionSentence, factRows } from './recording-facts';
import { SpeechDurations } from './SpeechDurations';

const FactsTable = ({ d }: { d: RecordingDetail }) => {
  const rows = factRows(d);
  return (
    <TableScroll label="Facts table">
      <table className="table compact facts">
        <caption>
          What Voicescope measured in the original file, and what the service reported about the audio it
          received{d.uploadPath ? ' (the converted copy)' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Fact</th>
            <th scope="col">Local (original file)</th>
            <th scope="col">Service</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([k, a, b]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{a}</td>
              <td>{b}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
};

/** How the converted copy was made: what decoded the original, the channel sent, the rate, the copy's hash. */
const ConversionFacts = ({ conversion: c }: { conversion: ConversionView }) => (
  <>
    <dt>Conversion</dt>
    <dd>{conversionSentence(c)}</dd>
    <dt>Converted copy’s hash (SHA-256)</dt>
    <dd>
      <code className="hash">{c.sha256}</code>
    </dd>
  </>
);

export const RecordingFile = ({ d, studyId }: { d: RecordingDetail; studyId: number }) => {
  const r = d.row;
  const apiErr = d.uploadError ? explainApiError(d.uploadError) : null;
  return (
    <Section title="File">
      <dl className="facts-list">
        <dt>File name</dt>
        <dd>
          <code className="wrap-anywhere">{r.fileName}</code>
        </dd>
        <dt>Original file</dt>
        <dd>
          <code className="wrap-anywhere">{d.sourcePath}</code>
        </dd>
        <dt>Sent to the service</dt>
        <dd>
          {d.uploadPath ? (
            <>
              A converted copy, <code>{d.uploadPath}</code> (the original was not changed)
            </>
          ) : (
            'The original file, as it is'
          )}
        </dd>
        {d.verdict?.conversion && <ConversionFacts conversion={d.verdict.conversion} />}
        <dt>Content hash (SHA-256)</dt>
        <dd>
          <code className="hash">{d.contentSha256}</code>
        </dd>
        <dt>Recorded at</dt>
        <dd>
          <time dateTime={r.recordedAt}>{fmtDateTime(r.recordedAt)}</time> ({fmtLongDateTime(r.recordedAt)}
          ), {DATE_SOURCE[r.recordedAtSource]}
        </dd>
        {d.duplicateOf && (
          <>
            <dt>Duplicate of</dt>
            <dd>
              Same audio as{' '}
              <Link href={paths.study(studyId).recording(d.duplicateOf.recordingId)}>
                {d.duplicateOf.fileName}
              </Link>
              , already imported for this participant
            </dd>
          </>
        )}
        <dt>Upload attempts</dt>
        <dd>{fmtInt(d.uploadAttempts)}</dd>
        {d.service && (
          <>
            <dt>Service recording id</dt>
            <dd>
              <code>{d.service.recordingId}</code>
              {d.service.uploadedAt ? `, received ${fmtDateTime(d.service.uploadedAt)}` : ''}
            </dd>
          </>
        )}
        <dt>Isolate oldest speaker</dt>
        <dd>{d.isolateOldestSpeaker ? 'Requested: only the oldest speaker’s voice was analysed' : 'No'}</dd>
        {apiErr && d.uploadError && (
          <>
            <dt>Service’s answer</dt>
            <dd>
              {apiErr.summary} {apiErr.action}
              {d.uploadError.serviceMessage ? ` The service said: “${d.uploadError.serviceMessage}”` : ''}
            </dd>
          </>
        )}
      </dl>
      <FactsTable d={d} />
      <SpeechDurations d={d} />
    </Section>
  );
};
