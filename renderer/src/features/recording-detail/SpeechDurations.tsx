/**
 * One file's speech duration as three parts of the workstation and the service count it, side by side:
 * each labelled with what it is and how it was measured, and one line on why they differ.
 */
import { MEASURES } from '../../../../shared/acoustics/measures';
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import { useCall } from '../../lib/api';
import { fmtSeconds } from '../../lib/format';

interface Count {
  readonly label: string;
  readonly seconds: number | null | undefined;
  readonly how: string;
}

export const SPEECH_DIFFERENCE =
  'They differ because each draws the line between speech and pause in its own way: the import’s estimate bridges short pauses to decide the 30 s minimum, the service uses its own detector on the audio it received, and the local measures count only sounding intervals, leaving out every pause of 0.25 s or more.';

export const SpeechDurations = ({ d }: { d: RecordingDetail }) => {
  const speech = useCall('recordings.speech', { recordingId: d.row.id }, { staleTime: Infinity });
  const local = useCall('acoustics.recording', { recordingId: d.row.id });
  const method = speech.data?.available ? ` (${speech.data.method})` : '';
  const counts: Count[] = [
    {
      label: 'Import’s estimate',
      seconds: d.local.speechEstimateSeconds,
      how: `Voice activity detection on the original file at import${method}, the check against the service’s 30 s minimum`,
    },
    {
      label: 'Service',
      seconds: d.service?.speechSeconds,
      how: `Reported by the service in its upload receipt, from its own speech detection on the audio it received${d.uploadPath ? ' (the converted copy)' : ''}`,
    },
    {
      label: 'Local measures’ speech time',
      seconds: local.data?.measures['speech_seconds'],
      how: `${MEASURES.speech_seconds.algorithm}: ${MEASURES.pause_count.algorithm.replace(/^Silent intervals between sounding ones, /, '')}`,
    },
  ];
  return (
    <div className="speech-durations" data-testid="speech-durations">
      <h3>Speech duration, three ways</h3>
      <dl className="speech-duration-list">
        {counts.map((c) => (
          <div key={c.label} className="speech-duration">
            <dt>{c.label}</dt>
            <dd>
              <strong>
                {c.seconds === null || c.seconds === undefined ? 'not measured' : fmtSeconds(c.seconds)}
              </strong>{' '}
              <span className="muted small">{c.how}</span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="muted small">{SPEECH_DIFFERENCE}</p>
    </div>
  );
};
