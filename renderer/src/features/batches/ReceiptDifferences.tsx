/**
 * Where the service's upload receipts of a batch differ: from what was sent (account, recording time),
 * from the workstation's own reading of the file (format, duration, sample rate, size, speech time), or
 * from the specification. Each upload is kept; the researcher sees which recordings and what differed.
 * Nothing is shown while there is no difference.
 */
import { Link } from 'wouter';
import { DATA_QUALITY } from '../../../../shared/api/data-quality';
import type { ReceiptDifferenceView } from '../../../../shared/contract/batches.contract';
import { paths } from '../../app/paths';
import { Badge } from '../../components/Badges';
import { Section } from '../../components/Page';
import { useCall } from '../../lib/api';
import { plural } from '../../lib/format';

const ORIGIN: Record<ReceiptDifferenceView['origin'], string> = {
  receipt_check: 'Compared with what was sent',
  receipt: 'Receipt departs from the specification',
};

export const ReceiptDifferences = ({ studyId, batchId }: { studyId: number; batchId: number }) => {
  const q = useCall('batches.receiptDifferences', { batchId });
  const list = q.data ?? [];
  if (list.length === 0) return null;
  const recordings = new Set(list.map((d) => d.recordingId)).size;
  return (
    <Section title="Receipt differences">
      <p>
        For {plural(recordings, 'recording')} the service’s upload receipt differs from what was sent or from
        the workstation’s own reading of the file ({plural(list.length, 'difference')}). Each upload is kept
        and its analyses go on; check these recordings before relying on their results.
      </p>
      <table className="table compact receipt-differences">
        <caption className="sr-only">Upload receipts of this batch that differ</caption>
        <thead>
          <tr>
            <th scope="col">Recording</th>
            <th scope="col">What differed</th>
            <th scope="col">Service’s receipt</th>
            <th scope="col">Expected</th>
          </tr>
        </thead>
        <tbody>
          {list.map((d, i) => (
            <tr key={i} data-flag={d.code} data-recording={d.recordingId}>
              <th scope="row">
                <Link href={paths.study(studyId).recording(d.recordingId)}>
                  {d.participantCode} · {d.fileName}
                </Link>
                {d.session ? <div className="muted">{d.session}</div> : null}
              </th>
              <td>
                <Badge tone="warn">{d.code.replace(/_/g, ' ')}</Badge> {DATA_QUALITY[d.code].meaning}
                <div className="muted small">
                  {ORIGIN[d.origin]} · <code>{d.path}</code>
                </div>
              </td>
              <td>
                <code>{d.received ?? 'nothing'}</code>
              </td>
              <td>{d.expected}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
};
