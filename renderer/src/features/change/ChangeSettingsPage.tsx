/**
 * A study's settings for change statistics (docs/change.md): k, the sessions a baseline needs, and each
 * numeric measure's test-retest reliability for the reliable change index, with its documented default
 * and source. A value the study sets carries a note (where it was estimated); it can be reset.
 */
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { baselineRuleText } from '../../../../shared/baseline';
import type {
  ChangeSettingsView,
  MeasureReliability,
} from '../../../../shared/contract/reliability.contract';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { PageHeader, Section } from '../../components/Page';
import { useAction, useCall } from '../../lib/api';
import { paths } from '../../app/paths';

const BaselineForm = ({ studyId, settings }: { studyId: number; settings: ChangeSettingsView }) => {
  const k = settings.baselineSessions;
  const [draft, setDraft] = useState(String(k));
  const save = useAction('reliability.setBaselineSessions');
  const n = Number(draft);
  const invalid = !(Number.isInteger(n) && n >= 1 && n <= 20);
  const back = settings.fallback;
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!invalid) void save.run({ studyId, baselineSessions: n });
      }}
    >
      <TextField
        label="Sessions a baseline needs"
        type="number"
        min={1}
        max={20}
        className="narrow-number"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        error={invalid ? 'Enter a whole number from 1 to 20.' : null}
        hint={`Baseline: ${baselineRuleText(settings.baselineRule)}. One setting for the study: every participant’s timeline, the exports and the command line use it. Until a participant has ${k} ${k === 1 ? 'session' : 'sessions'} of a measure, they say “no baseline yet”.`}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={save.pending || invalid}>
          Save
        </button>
        {!settings.baselineSessionsIsDefault && (
          <button
            type="button"
            disabled={save.pending}
            onClick={() => {
              setDraft(String(back.sessions));
              void save.run({ studyId, baselineSessions: null });
            }}
          >
            {back.source === 'schedule'
              ? `Back to the schedule’s (${back.sessions})`
              : `Back to the default (${back.sessions})`}
          </button>
        )}
      </div>
      <ErrorNotice error={save.error} />
    </form>
  );
};

const ReliabilityRow = ({ studyId, m }: { studyId: number; m: MeasureReliability }) => {
  const [r, setR] = useState(m.r === null ? '' : String(m.r));
  const [note, setNote] = useState(m.note);
  const set = useAction('reliability.set');
  const reset = useAction('reliability.remove');
  const value = Number(r);
  const invalid = r !== '' && !(Number.isFinite(value) && value >= 0 && value <= 0.99);
  return (
    <tr data-measure={m.key}>
      <th scope="row">
        {m.label} <span className="muted small">({m.key})</span>
      </th>
      <td>
        {m.r === null ? (
          <span className="muted">none: trend only</span>
        ) : (
          <>
            <strong>{m.r}</strong>{' '}
            <span className="muted small">({m.source === 'study' ? 'study' : 'default'})</span>
          </>
        )}
      </td>
      <td className="small">
        {m.defaultR === null ? (
          <span className="muted">No published retest reliability (model output).</span>
        ) : (
          <>
            {m.defaultR}: {m.group}. <span className="muted">{m.basis}</span>
          </>
        )}
      </td>
      <td>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (r !== '' && !invalid) void set.run({ studyId, measureKey: m.key, r: value, note });
          }}
        >
          <TextField
            label={`Study value for ${m.label}`}
            type="number"
            min={0}
            max={0.99}
            step="0.01"
            className="narrow-number"
            value={r}
            onChange={(e) => setR(e.target.value)}
            error={invalid ? 'From 0 to 0.99.' : null}
          />
          <TextField
            label="Note (where it was estimated)"
            value={note}
            maxLength={500}
            onChange={(e) => setNote(e.target.value)}
          />
          <button type="submit" disabled={set.pending || invalid || r === ''}>
            Set
          </button>
          {m.source === 'study' && (
            <button
              type="button"
              disabled={reset.pending}
              onClick={() => {
                void reset.run({ studyId, measureKey: m.key }).then((x) => {
                  if (x.ok) {
                    const back = x.value.measures.find((y) => y.key === m.key);
                    setR(back?.r === null || back === undefined ? '' : String(back.r));
                    setNote('');
                  }
                });
              }}
            >
              Reset
            </button>
          )}
        </form>
        <ErrorNotice error={set.error ?? reset.error} />
      </td>
    </tr>
  );
};

export const ChangeSettingsPage = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const q = useCall('reliability.get', { studyId });
  return (
    <div className="page">
      <PageHeader
        title="Change statistics"
        subtitle="The baseline, the SD floor and the reliable change index the timelines and the summary export use."
      />
      <QueryView q={q} loading="Loading the settings…">
        {(s) => (
          <>
            <Notice tone="info">
              <p>
                A change is called reliable when |RCI| ≥ 1.96, with RCI = change / (√2 · SD₁ · √(1 − r)): SD₁
                is the cohort’s baseline SD and r the measure’s test-retest reliability below. Change in SD
                uses the larger of the participant’s baseline SD and the cohort’s pooled within-person SD. See{' '}
                <Link href={paths.study(studyId).participants}>the participants’ timelines</Link>.
              </p>
            </Notice>
            <Section title="Baseline">
              <BaselineForm studyId={studyId} settings={s} key={s.baselineSessions} />
            </Section>
            <Section title="Test-retest reliability by measure">
              <table className="table compact reliability-table">
                <thead>
                  <tr>
                    <th scope="col">Measure</th>
                    <th scope="col">r in use</th>
                    <th scope="col">Default and source</th>
                    <th scope="col">Set for this study</th>
                  </tr>
                </thead>
                <tbody>
                  {s.measures.map((m) => (
                    <ReliabilityRow key={`${m.key}-${m.r}-${m.source}`} studyId={studyId} m={m} />
                  ))}
                </tbody>
              </table>
            </Section>
          </>
        )}
      </QueryView>
    </div>
  );
};
