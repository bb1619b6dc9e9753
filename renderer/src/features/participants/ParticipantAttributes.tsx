/**
 * One participant's attributes (arm, site or any key), entered in the window: each key and value
 * editable, a new one added, one removed (an empty value removes it). Saved together.
 */
import { useEffect, useState } from 'react';
import { ErrorNotice } from '../../components/Feedback';
import { useAction, useCall } from '../../lib/api';

export const ParticipantAttributes = ({
  studyId,
  participantId,
}: {
  studyId: number;
  participantId: number;
}) => {
  const all = useCall('cohort.attributes', { studyId });
  const save = useAction('cohort.setAttributes');
  const stored = all.data?.participants.find((p) => p.participantId === participantId)?.attributes;
  const [rows, setRows] = useState<{ key: string; value: string }[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (stored)
      setRows([...Object.entries(stored).map(([key, value]) => ({ key, value })), { key: '', value: '' }]);
  }, [stored]);
  if (!stored) return null;
  const suggestions = all.data?.keys.map((k) => k.key) ?? [];
  return (
    <form
      className="attributes-form"
      aria-label="Attributes"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        const named = rows.filter((r) => r.key.trim() !== '');
        const kept = new Set(named.map((r) => r.key.trim()));
        const changes = [
          ...named.map((r) => ({ key: r.key.trim(), value: r.value.trim() === '' ? null : r.value.trim() })),
          ...Object.keys(stored)
            .filter((k) => !kept.has(k))
            .map((key) => ({ key, value: null })),
        ];
        void save.run({ participantId, changes }).then((r) => setSaved(r.ok));
      }}
    >
      <p className="muted small">
        Attributes group this participant in the cohort view (for example arm, site, diagnosis). An empty
        value removes the attribute.
      </p>
      <datalist id="attribute-keys">
        {suggestions.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      {rows.map((r, i) => (
        <div className="attribute-row" key={i}>
          <label>
            Attribute
            <input
              list="attribute-keys"
              value={r.key}
              maxLength={64}
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
            />
          </label>
          <label>
            Value
            <input
              value={r.value}
              maxLength={200}
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
            />
          </label>
        </div>
      ))}
      <div className="row">
        <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
          Add an attribute
        </button>
        <button type="submit" className="primary" disabled={save.pending}>
          Save attributes
        </button>
        {saved && (
          <span role="status" className="muted">
            Saved.
          </span>
        )}
      </div>
      <ErrorNotice error={save.error} title="The attributes were not saved" />
    </form>
  );
};
