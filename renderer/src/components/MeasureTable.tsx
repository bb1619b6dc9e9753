/**
 * The stored values of one analysis type for one recording, with label, unit, kind and meaning from the
 * measure catalogue (the specification's own words). A value the service did not provide reads
 * "not provided" — never 0 or blank — and while the analysis is unfinished every value says so. A value
 * that departs from the specification is shown as received and marked, with the reason in words
 * (shared/api/data-quality.ts).
 */
import { DATA_QUALITY, describeFlag, type DataQualityFlag } from '../../../shared/api/data-quality';
import { measuresOf, type MeasureKind } from '../../../shared/api/measures';
import type { AnalysisType } from '../../../shared/api/vocabulary';
import { fmtNumber } from '../lib/format';
import { TableScroll } from './TableScroll';

export const KIND_LABEL: Record<MeasureKind, string> = {
  indicator: 'Indicator',
  insight: 'Insight',
  score: 'Score',
  probability: 'Probability',
};

export const MeasureTable = ({
  type,
  values,
  completed,
  stateLabel,
  caption,
  flags = [],
}: {
  type: AnalysisType;
  values: Readonly<Record<string, number | string>>;
  /** Whether this analysis finished with results; otherwise no value is expected yet. */
  completed: boolean;
  stateLabel: string;
  caption: string;
  /** Data-quality flags of this analysis type and of the recording; those naming a measure mark its value. */
  flags?: readonly DataQualityFlag[];
}) => {
  const measures = measuresOf(type);
  return (
    <TableScroll label={caption}>
      <table className="table compact measure-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            <th scope="col" className="right">
              Value
            </th>
            <th scope="col">Unit</th>
            <th scope="col">Kind</th>
            <th scope="col">Meaning (specification)</th>
          </tr>
        </thead>
        <tbody>
          {measures.map((m) => {
            const v = values[m.key];
            const own = flags.filter((f) => f.measures.includes(m.key));
            return (
              <tr key={m.key} className={own.length > 0 ? 'flagged' : undefined}>
                <th scope="row">{m.label}</th>
                <td className="right value-cell" data-flags={own.map((f) => f.code).join(' ') || undefined}>
                  {v !== undefined ? (
                    typeof v === 'number' ? (
                      fmtNumber(v, m.valueType === 'integer' ? 0 : undefined)
                    ) : (
                      v
                    )
                  ) : completed ? (
                    <span className="muted not-provided">not provided</span>
                  ) : (
                    <span className="muted">{stateLabel.toLowerCase()}</span>
                  )}
                  {own.length > 0 && (
                    <>
                      {' '}
                      <span className="badge badge-warn">Flagged</span>
                    </>
                  )}
                </td>
                <td>
                  {m.unit ??
                    (m.allowed ? (
                      <span className="muted">one of: {m.allowed.join(', ')}</span>
                    ) : (
                      <span className="muted">
                        {m.valueType === 'category'
                          ? 'category (levels not listed)'
                          : m.kind === 'probability'
                            ? 'probability 0–1'
                            : 'no unit'}
                      </span>
                    ))}
                </td>
                <td>{KIND_LABEL[m.kind]}</td>
                <td>
                  {m.meaning}
                  {/* Why the value is flagged, in the widest column (the value column stays narrow). */}
                  {own.map((f, i) => (
                    <div key={i} className="flag-note" title={describeFlag(f)}>
                      <span className="flag-why">Flagged:</span> {DATA_QUALITY[f.code].meaning}{' '}
                      <span className="muted">
                        Received: {f.received ?? 'nothing'}. Expected: {f.expected}.
                      </span>
                    </div>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
};
