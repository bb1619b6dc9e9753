/**
 * The export form's "What to export": which participants, recorded between which days, which sessions,
 * analysis types and analysis states.
 */
import { ANALYSIS_TYPES } from '../../../../shared/api/vocabulary';
import { type Output } from '../../../../shared/contract';
import { ANALYSIS_STATES } from '../../../../shared/states';
import { Checkbox, TextField } from '../../components/Form';
import { Section } from '../../components/Page';
import { fmtDate, fmtInt, plural } from '../../lib/format';
import { ANALYSIS_LABEL, ANALYSIS_STATE } from '../../lib/labels';
import { toggled, type ChoicesProps } from './export-choices';

type Options = Output<'exports.options'>;

/** Every participant, or only the codes typed (those not in the study are named when the field is left). */
const ParticipantsField = ({
  choices,
  change,
  groupId,
  participants,
  checkCodes,
  unknown,
}: ChoicesProps & {
  participants: number;
  checkCodes: () => void;
  unknown: readonly string[] | undefined;
}) => (
  <fieldset>
    <legend>Participants</legend>
    <div className="row">
      <label>
        <input
          type="radio"
          name={`${groupId}-p`}
          checked={choices.allParticipants}
          onChange={() => change({ allParticipants: true })}
        />{' '}
        All {fmtInt(participants)}
      </label>
      <label>
        <input
          type="radio"
          name={`${groupId}-p`}
          checked={!choices.allParticipants}
          onChange={() => change({ allParticipants: false })}
        />{' '}
        Only these codes
      </label>
    </div>
    {!choices.allParticipants && (
      <div className="field">
        <label htmlFor={`${groupId}-codes`}>Participant codes (one per line, or separated by commas)</label>
        <textarea
          id={`${groupId}-codes`}
          rows={4}
          value={choices.codes}
          onChange={(e) => change({ codes: e.target.value })}
          onBlur={checkCodes}
        />
        {unknown && unknown.length > 0 && (
          <p className="error-text">
            Not in this study: {unknown.slice(0, 20).join(', ')}
            {unknown.length > 20 ? '…' : ''}
          </p>
        )}
      </div>
    )}
  </fieldset>
);

/** Every session, or only those ticked. */
const SessionsField = ({ choices, change, o }: Omit<ChoicesProps, 'groupId'> & { o: Options }) => {
  const sessions = choices.sessions;
  return (
    <fieldset>
      <legend>Sessions</legend>
      <Checkbox
        label="All sessions"
        checked={sessions === null}
        onChange={(v) => change({ sessions: v ? null : [...o.sessions] })}
      />
      {sessions !== null && (
        <div className="checks">
          {o.sessions.map((s) => (
            <Checkbox
              key={s}
              label={s}
              checked={sessions.includes(s)}
              onChange={(v) => change({ sessions: toggled(sessions, s, v) })}
            />
          ))}
        </div>
      )}
      {o.sessionsTruncated && <p className="hint">Only the first 500 session labels are listed.</p>}
    </fieldset>
  );
};

/** The analysis types the study holds, and the states an analysis must be in to be exported. */
const AnalysesFields = ({ choices, change, o }: Omit<ChoicesProps, 'groupId'> & { o: Options }) => (
  <>
    <fieldset>
      <legend>Analysis types</legend>
      <div className="checks">
        {ANALYSIS_TYPES.filter((t) => o.analyses.includes(t)).map((t) => (
          <Checkbox
            key={t}
            label={ANALYSIS_LABEL[t]}
            checked={(choices.analyses ?? o.analyses).includes(t)}
            onChange={(v) => change({ analyses: toggled(choices.analyses ?? o.analyses, t, v) })}
          />
        ))}
      </div>
    </fieldset>
    <fieldset>
      <legend>Analysis states</legend>
      <p className="hint">
        A failed or pending analysis is exported with its state and empty values, so nothing disappears
        silently. Keep only “Completed” to leave them out.
      </p>
      <div className="checks">
        {ANALYSIS_STATES.filter((s) => s !== 'awaiting_upload').map((s) => (
          <Checkbox
            key={s}
            label={ANALYSIS_STATE[s].label}
            checked={choices.states.includes(s)}
            onChange={(v) => change({ states: toggled(choices.states, s, v) })}
          />
        ))}
      </div>
    </fieldset>
  </>
);

/** "What to export": the study's recordings at a glance, then the selection. */
export const ExportSelection = ({
  o,
  checkCodes,
  unknown,
  ...props
}: ChoicesProps & {
  o: Options;
  /** Asks which of the codes typed are not in the study (when the codes field is left). */
  checkCodes: () => void;
  unknown: readonly string[] | undefined;
}) => {
  const { choices, change } = props;
  return (
    <Section title="What to export">
      <p className="muted">
        {plural(o.uploadedRecordings, 'analysed recording')} of {plural(o.participants, 'participant')},
        recorded {fmtDate(o.firstRecordedAt)} to {fmtDate(o.lastRecordedAt)} · API{' '}
        {o.apiVersions.join(' and ') || '—'}
      </p>
      <ParticipantsField {...props} participants={o.participants} checkCodes={checkCodes} unknown={unknown} />
      <div className="grid-form">
        <TextField
          label="Recorded from (inclusive)"
          type="date"
          value={choices.from}
          onChange={(e) => change({ from: e.target.value })}
          hint="A calendar day in the time zone below."
        />
        <TextField
          label="Recorded to (inclusive)"
          type="date"
          value={choices.to}
          onChange={(e) => change({ to: e.target.value })}
        />
      </div>
      {o.sessions.length > 0 && <SessionsField choices={choices} change={change} o={o} />}
      <AnalysesFields choices={choices} change={change} o={o} />
    </Section>
  );
};
