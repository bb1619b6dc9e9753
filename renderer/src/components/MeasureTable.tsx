/**
 * The stored values of one analysis type for one recording, with label, unit, kind and meaning from the
 * measure catalogue (the specification's own words). A value the service did not provide reads
 * "not provided" — never 0 or blank — and while the analysis is unfinished every value says so.
 */
import { measuresOf, type MeasureKind } from '../../../shared/api/measures';
import type { AnalysisType } from '../../../shared/api/vocabulary';
import { fmtNumber } from '../lib/format';

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
}: {
  type: AnalysisType;
  values: Readonly<Record<string, number | string>>;
  /** Whether this analysis finished with results; otherwise no value is expected yet. */
  completed: boolean;
  stateLabel: string;
  caption: string;
}) => {
  const measures = measuresOf(type);
  return (
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
          return (
            <tr key={m.key}>
              <th scope="row">{m.label}</th>
              <td className="right value-cell">
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
              <td>{m.meaning}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
};
