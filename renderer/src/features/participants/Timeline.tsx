/**
 * A participant's timeline: for each analysis type a group of small charts, one per measure, with the
 * within-person baseline (first N sessions, adjustable) and the latest change from it; a legend of
 * version styles and session markers; a notice whenever v1.2 and v1.3 results are both present.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'wouter';
import { paths } from '../../app/paths';
import { MEASURES } from '../../../../shared/api/measures';
import { ANALYSIS_TYPES } from '../../../../shared/api/vocabulary';
import { DEFAULT_BASELINE_SESSIONS } from '../../../../shared/baseline';
import { Empty, Notice, QueryView } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import {
  FLAGGED_LABEL,
  FlagRingIcon,
  MARKERS,
  MarkerIcon,
  TimelineChart,
  VERSION_STYLE,
  markersOf,
  type ChartSession,
} from '../../components/TimelineChart';
import { useCall } from '../../lib/api';
import { ANALYSIS_LABEL } from '../../lib/labels';
import { plural } from '../../lib/format';

const Legend = ({
  versions,
  sessions,
  flagged,
}: {
  versions: readonly string[];
  sessions: readonly ChartSession[];
  /** How many values on these charts are flagged as departing from the specification. */
  flagged: number;
}) => {
  const used = new Set(sessions.flatMap((s) => markersOf(s).map((m) => m.key)));
  return (
    <div className="tlegend" aria-label="How to read the charts" role="group">
      {versions.map((v) => (
        <span key={v} className="tlegend-item">
          <svg
            width="28"
            height="12"
            aria-hidden="true"
            focusable="false"
            className={`version-swatch version-${v.replace('.', '')}`}
          >
            <line
              x1="1"
              y1="6"
              x2="27"
              y2="6"
              stroke="currentColor"
              strokeWidth="2"
              strokeDasharray={VERSION_STYLE[v as 'v1.2']?.dash?.join(' ')}
            />
            <circle
              cx="14"
              cy="6"
              r="3.5"
              stroke="currentColor"
              strokeWidth="2"
              fill={VERSION_STYLE[v as 'v1.2']?.hollow ? 'var(--panel)' : 'currentColor'}
            />
          </svg>
          API {v} results ({VERSION_STYLE[v as 'v1.2']?.words})
        </span>
      ))}
      <span className="tlegend-item">
        <span className="band-swatch" aria-hidden="true" />
        Baseline: mean ± 1 SD of the first sessions, once all are present (dashed line: mean)
      </span>
      {MARKERS.map((m) => (
        <span key={m.key} className={`tlegend-item${used.has(m.key) ? '' : ' unused'}`}>
          <span className="marker-colour">
            <MarkerIcon shape={m.shape} />
          </span>
          {m.label}
          {used.has(m.key) ? '' : ' (none here)'}
        </span>
      ))}
      <span className={`tlegend-item${flagged > 0 ? '' : ' unused'}`}>
        <span className="flag-colour">
          <FlagRingIcon />
        </span>
        {FLAGGED_LABEL}
        {flagged > 0 ? ` (${flagged}; each chart’s table says why)` : ' (none here)'}
      </span>
    </div>
  );
};

export const Timeline = ({ participantId }: { participantId: number }) => {
  const studyId = Number(useParams<{ id: string }>().id);
  // Undefined: the study's k (its setting); a number: the researcher's choice for this view.
  const [n, setN] = useState<number | undefined>(undefined);
  const [draft, setDraft] = useState<string | null>(null);
  const q = useCall(
    'timeline.participant',
    { participantId, ...(n !== undefined ? { baselineSessions: n } : {}) },
    { placeholderData: keepPreviousData },
  );
  const shown = draft ?? String(q.data?.baselineSessions ?? DEFAULT_BASELINE_SESSIONS);
  const sessions = useMemo(() => new Map((q.data?.sessions ?? []).map((s) => [s.recordingId, s])), [q.data]);
  const span = useMemo((): [number, number] | undefined => {
    const all = q.data?.sessions ?? [];
    return all.length
      ? [Date.parse(all[0]!.recordedAt) / 1000, Date.parse(all.at(-1)!.recordedAt) / 1000]
      : undefined;
  }, [q.data]);

  const commit = (v: string) => {
    setDraft(v);
    const k = Number(v);
    if (Number.isInteger(k) && k >= 1 && k <= 20) setN(k);
  };
  const draftInvalid = !(Number.isInteger(Number(shown)) && Number(shown) >= 1 && Number(shown) <= 20);

  return (
    <section className="section" aria-labelledby="timeline-h">
      <div className="section-head">
        <h2 id="timeline-h">Timeline</h2>
        <div className="actions">
          <Link href={paths.study(studyId).change}>Change statistics settings</Link>
          <TextField
            label="Baseline: first sessions"
            type="number"
            min={1}
            max={20}
            value={shown}
            className="narrow-number"
            onChange={(e) => commit(e.target.value)}
            error={draftInvalid ? 'Enter a whole number from 1 to 20.' : null}
          />
        </div>
      </div>
      <QueryView q={q} loading="Loading the timeline…">
        {(t) =>
          t.measures.length === 0 ? (
            <Empty title="No results yet">
              <p>
                Charts appear once at least one of this participant’s recordings has been analysed. Recordings
                still processing are listed below.
              </p>
            </Empty>
          ) : (
            <>
              <p className="muted">
                {plural(t.sessions.length, 'analysed session')}. Baseline: the first{' '}
                {plural(t.baselineSessions, 'session')} of each series, only once all are present. Each chart
                gives the latest later session’s change from it in the measure’s unit, in SDs (the larger of
                the participant’s baseline SD and the cohort’s within-person SD; none over a degenerate SD),
                and whether it is a reliable change (Jacobson–Truax RCI, |RCI| ≥ 1.96, with the measure’s
                test-retest reliability). Service scores have no published reliability: a trend, no verdict.
              </p>
              {t.versions.length > 1 && (
                <Notice tone="warn" title="Results from two API versions">
                  <p>
                    This participant has results from API {t.versions.join(' and ')}. The versions come from
                    different models and field definitions, so each has its own series and its own baseline;
                    they are never joined. Compare changes within one version only.
                  </p>
                </Notice>
              )}
              <Legend
                versions={t.versions}
                sessions={t.sessions}
                flagged={t.measures.reduce(
                  (n, m) =>
                    n + m.series.reduce((k, s) => k + s.points.filter((p) => p.flags.length).length, 0),
                  0,
                )}
              />
              {ANALYSIS_TYPES.map((type) => {
                const measures = MEASURES.filter((m) => m.analysis === type)
                  .map((m) => ({ m, series: t.measures.find((x) => x.key === m.key)?.series ?? [] }))
                  .filter((x) => x.series.length > 0);
                if (measures.length === 0) return null;
                return (
                  <details key={type} className="tgroup" open>
                    <summary>
                      <h3>
                        {ANALYSIS_LABEL[type]}{' '}
                        <span className="muted small">({plural(measures.length, 'measure')})</span>
                      </h3>
                    </summary>
                    <div className="tgrid">
                      {measures.map(({ m, series }) => (
                        <TimelineChart
                          key={m.key}
                          measure={m}
                          series={series}
                          sessions={sessions}
                          {...(span ? { span } : {})}
                          baselineSessions={t.baselineSessions}
                        />
                      ))}
                    </div>
                  </details>
                );
              })}
            </>
          )
        }
      </QueryView>
    </section>
  );
};
