/**
 * The participants' attributes on the cohort page: a CSV import (participant_code, then one column per
 * attribute; read in the window and sent as text) with its report, and the table of what each
 * participant carries. One participant's attributes are edited on their page.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { MAX_ATTRIBUTES_CSV, type AttributesImport } from '../../../../shared/contract/cohort.contract';
import { paths } from '../../app/paths';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { useAction, type useCall } from '../../lib/api';
import { plural } from '../../lib/format';

/** At most this many participants are listed here (the rest: their own pages, or the CLI). */
const LISTED = 200;

export const AttributesPanel = ({
  studyId,
  attributes,
}: {
  studyId: number;
  attributes: ReturnType<typeof useCall<'cohort.attributes'>>;
}) => {
  const importCsv = useAction('cohort.setAttributesFromCsv');
  const [report, setReport] = useState<AttributesImport | null>(null);
  const [tooBig, setTooBig] = useState(false);
  return (
    <Section title="Participant attributes" id="attributes-h">
      <p className="muted">
        Attributes (arm, site, diagnosis or any other) group the cohort chart. Import a CSV whose first column
        is <code>participant_code</code> and whose other columns are attributes; an empty cell leaves a value
        as it is. From the command line: <code>voicescope attributes --study {studyId} --csv file.csv</code>.
      </p>
      <div className="field">
        <label htmlFor="attributes-csv">Import attributes from a CSV file</label>
        <input
          id="attributes-csv"
          type="file"
          accept=".csv,.tsv,.txt,text/csv"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setTooBig(file.size > MAX_ATTRIBUTES_CSV);
            if (file.size > MAX_ATTRIBUTES_CSV) return;
            void file.text().then(async (csv) => {
              const r = await importCsv.run({ studyId, csv });
              setReport(r.ok ? r.value : null);
            });
          }}
        />
      </div>
      {tooBig && (
        <Notice tone="bad" title="The file is too large">
          <p>Attribute files up to 2 MB are read here; split it, or use the command line.</p>
        </Notice>
      )}
      <ErrorNotice error={importCsv.error} title="The attributes were not imported" />
      {report && (
        <Notice tone={report.unknownCodes.length || report.problems.length ? 'warn' : 'ok'} title="Imported">
          <p>
            Set {report.keys.join(', ')} for {plural(report.applied, 'participant')}.
          </p>
          {report.unknownCodes.length > 0 && (
            <p>
              Not participants of this study (left out): {report.unknownCodes.slice(0, 20).join(', ')}
              {report.unknownCodes.length > 20 ? ` and ${report.unknownCodes.length - 20} more` : ''}.
            </p>
          )}
          {report.problems.slice(0, 10).map((p) => (
            <p key={p}>{p}</p>
          ))}
        </Notice>
      )}
      <QueryView q={attributes} loading="Loading the attributes…">
        {(a) =>
          a.keys.length === 0 ? (
            <p className="muted">No participant has attributes yet.</p>
          ) : (
            <div className="table-scroll">
              <table className="table compact attributes-table">
                <caption className="sr-only">Participants and their attributes</caption>
                <thead>
                  <tr>
                    <th scope="col">Participant</th>
                    {a.keys.map((k) => (
                      <th scope="col" key={k.key}>
                        {k.key}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {a.participants.slice(0, LISTED).map((p) => (
                    <tr key={p.participantId}>
                      <th scope="row">
                        <Link href={paths.study(studyId).participant(p.participantId)}>{p.code}</Link>
                      </th>
                      {a.keys.map((k) => (
                        <td key={k.key}>{p.attributes[k.key] ?? <span className="muted">—</span>}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {a.participants.length > LISTED && (
                <p className="muted small">
                  The first {LISTED} of {a.participants.length} participants; the others’ are on their pages.
                </p>
              )}
            </div>
          )
        }
      </QueryView>
    </Section>
  );
};
