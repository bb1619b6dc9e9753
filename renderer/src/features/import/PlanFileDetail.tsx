/**
 * One file of the import preview in full, below the table: its audio, participant and date, every
 * finding with what to do, the duplicate it repeats, and the choices that concern it alone.
 */
import type { PlannedFile } from '../../../../shared/study';
import { seenElsewhereText } from '../../../../shared/seen-elsewhere';
import { Badge } from '../../components/Badges';
import { Checkbox, SelectField } from '../../components/Form';
import { fmtBytes, fmtDateTime, fmtSeconds } from '../../lib/format';
import type { ChannelChoice } from './import-choice';
import { ACTION, DATE_SOURCE, VERDICT, verdictAddsToAction } from './import-labels';
import { audioInWords, channelValue, parseChannel } from './plan-file-words';

/** The channel choices of a file with `channels` channels (or of the whole import when null). */
export const channelOptions = (channels: number | null) => (
  <>
    <option value="auto">The channel with the most speech</option>
    <option value="mix">The mix of all channels</option>
    {Array.from({ length: channels ?? 8 }, (_, i) => (
      <option key={i + 1} value={String(i + 1)}>
        Channel {i + 1}
      </option>
    ))}
  </>
);

/**
 * Everything about one file of the plan, with what to do; from here a duplicate can be sent anyway, a
 * borderline file sent, and a multichannel file's channel chosen (the file is measured again).
 */
export const FileDetail = ({
  f,
  insisted,
  onInsist,
  borderlineSent,
  onBorderline,
  channel,
  onChannel,
  disabled,
}: {
  f: PlannedFile;
  insisted: boolean;
  onInsist: (v: boolean) => void;
  borderlineSent: boolean;
  onBorderline: (v: boolean) => void;
  /** The channel chosen for this file, or null when it follows the import's choice. */
  channel: ChannelChoice | null;
  onChannel: (c: ChannelChoice | null) => void;
  disabled: boolean;
}) => (
  <div className="card plan-detail" aria-live="polite">
    <p className="card-title">
      {f.fileName} <Badge tone={ACTION[f.action].tone}>{ACTION[f.action].label}</Badge>{' '}
      {verdictAddsToAction(f.action, f.verdict.status) && (
        <Badge tone={VERDICT[f.verdict.status].tone}>{VERDICT[f.verdict.status].label}</Badge>
      )}
    </p>
    <p className="small">
      <code className="mono">{f.path}</code> · {fmtBytes(f.sizeBytes)} · {audioInWords(f)} · speech{' '}
      {fmtSeconds(f.speechSeconds)}
    </p>
    <p>{ACTION[f.action].explain}</p>
    <p>
      <strong>Participant:</strong> {f.participantCode ?? 'none'}
      {f.session ? `, session ${f.session}` : ''} · <strong>Recorded at:</strong> {fmtDateTime(f.recordedAt)}
      {f.recordedAtSource ? ` (from the ${DATE_SOURCE[f.recordedAtSource]})` : ''}
    </p>
    {f.assignmentProblem && (
      <p>
        <strong>Participant:</strong> {f.assignmentProblem}
      </p>
    )}
    {f.verdict.findings.length > 0 && (
      <ul className="findings">
        {f.verdict.findings.map((x) =>
          f.verdict.status === 'will_convert' && x.fixedByConversion ? (
            <li key={x.code}>
              <Badge tone="info">Fixed by conversion</Badge> {x.message} Conversion is on: the copy sent is
              mono 16 kHz.
            </li>
          ) : (
            <li key={x.code}>
              <Badge tone={x.severity === 'refuse' ? 'bad' : 'warn'}>
                {x.severity === 'refuse' ? 'Refused' : 'Warning'}
              </Badge>{' '}
              {x.message} <strong>What to do:</strong> {x.action}
            </li>
          ),
        )}
      </ul>
    )}
    {f.seenElsewhere && f.seenElsewhere.length > 0 && (
      <p>
        <strong>Seen elsewhere:</strong> {seenElsewhereText(f.seenElsewhere)}
      </p>
    )}
    {f.duplicateOf && !f.seenElsewhere?.length && (
      <p>
        <strong>Duplicate of:</strong> <code className="mono">{f.duplicateOf.path}</code>
        {f.duplicateOf.recordingId !== null
          ? ` (already in the study as recording ${f.duplicateOf.recordingId})`
          : ' (earlier in this import)'}
      </p>
    )}
    {f.action === 'duplicate' && (
      <Checkbox
        label="Send anyway (it really is a different session)"
        checked={insisted}
        onChange={onInsist}
      />
    )}
    {f.action === 'borderline' && (
      <Checkbox
        label={`Send it: about ${fmtSeconds(f.speechSeconds)} of speech, the service decides (a refusal costs no credit)`}
        checked={borderlineSent}
        onChange={onBorderline}
      />
    )}
    {f.format === 'wav' && (f.channels ?? 1) > 1 && (
      <SelectField
        label="Channel sent for this file"
        value={channel === null ? 'import' : channelValue(channel)}
        disabled={disabled}
        onChange={(e) => onChannel(e.target.value === 'import' ? null : parseChannel(e.target.value))}
        hint={`${f.verdict.speech ? `Measured and sent now: ${f.verdict.speech.channelSent === 'mix' ? 'the mix' : `channel ${f.verdict.speech.channelSent}`}. ` : ''}Changing it measures this file again.`}
      >
        <option value="import">As for the whole import</option>
        {channelOptions(f.channels)}
      </SelectField>
    )}
  </div>
);
