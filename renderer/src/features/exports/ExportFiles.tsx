/**
 * The export form's "Files": which forms and statistics-package files, for which program, the local-time
 * zone, the summary's baseline, the link file and where the files go.
 */
import {
  EXPORT_EXTRAS,
  EXPORT_FORMS,
  EXTRA_FILE,
  type ExportExtra,
  type ExportForm,
} from '../../../../shared/export';
import { Checkbox, TextField } from '../../components/Form';
import { Section } from '../../components/Page';
import { toggled, type ChoicesProps } from './export-choices';

const FORM_TEXT: Record<ExportForm, { label: string; hint: string }> = {
  long: {
    label: 'Long (tidy): one row per recording and measure',
    hint: 'measures_long.csv — what R (tidyverse) and pandas prefer.',
  },
  wide: {
    label: 'Wide: one row per recording, one column per measure',
    hint: 'measures_wide.csv — for Excel and SPSS; stable column names and order.',
  },
  summary: {
    label: 'Per-participant summary',
    hint: 'participant_summary.csv — per measure and API version: n, baseline (mean and SD of the first sessions, as on the timeline), latest, change, mean and SD.',
  },
};

const EXTRA_TEXT: Record<ExportExtra, { label: string; hint: string }> = {
  spss: {
    label: 'SPSS syntax',
    hint: `${EXTRA_FILE.spss} — reads every CSV with variable labels, value labels for every category and the missing-data codes declared, and saves .sav files (also runs in GNU PSPP).`,
  },
  stata: {
    label: 'Stata do-file',
    hint: `${EXTRA_FILE.stata} — reads every CSV with variable and value labels and the missing-data codes as extended missing values (.a–.j), and saves .dta files.`,
  },
  xlsx: {
    label: 'Excel workbook',
    hint: `${EXTRA_FILE.xlsx} — a sheet per CSV with numbers, dates and text typed, plus a codebook sheet. Takes much longer and more memory than the CSVs: meant for studies of Excel’s size.`,
  },
};

/** The forms (long, wide, summary) and the files for statistics packages. */
const FilesFields = ({ choices, change }: Omit<ChoicesProps, 'groupId'>) => (
  <>
    <fieldset>
      <legend>Forms</legend>
      {EXPORT_FORMS.map((f) => (
        <Checkbox
          key={f}
          label={FORM_TEXT[f].label}
          hint={FORM_TEXT[f].hint}
          checked={choices.forms.includes(f)}
          onChange={(v) => change({ forms: toggled(choices.forms, f, v) })}
        />
      ))}
      <p className="hint">
        recordings.csv (provenance of every recording), codebook.md, datapackage.json, load.R, load.py and
        SHA256SUMS are always written.
      </p>
    </fieldset>
    <fieldset>
      <legend>Also for statistics packages</legend>
      {EXPORT_EXTRAS.map((x) => (
        <Checkbox
          key={x}
          label={EXTRA_TEXT[x].label}
          hint={EXTRA_TEXT[x].hint}
          checked={choices.extras.includes(x)}
          onChange={(v) => change({ extras: toggled(choices.extras, x, v) })}
        />
      ))}
    </fieldset>
  </>
);

/** For R, Python and SPSS (no byte order mark) or for Excel (with one). */
const ProgramField = ({ choices, change, groupId }: ChoicesProps) => (
  <fieldset>
    <legend>For which program</legend>
    <div className="row">
      <label>
        <input
          type="radio"
          name={`${groupId}-preset`}
          checked={choices.preset === 'standard'}
          onChange={() => change({ preset: 'standard' })}
        />{' '}
        R, Python, SPSS (UTF-8, no byte order mark)
      </label>
      <label>
        <input
          type="radio"
          name={`${groupId}-preset`}
          checked={choices.preset === 'excel'}
          onChange={() => change({ preset: 'excel' })}
        />{' '}
        Excel (UTF-8 with a byte order mark)
      </label>
    </div>
    <p className="hint">
      A byte order mark lets Excel on Windows read accents correctly but turns the first column name of base
      R's read.csv into “ï..recording”.
    </p>
  </fieldset>
);

/** The desktop app writes into a folder the researcher chooses; browser mode into the workspace. */
const DestinationField = ({
  desktop,
  destination,
  choose,
  exportsDir,
}: {
  desktop: boolean;
  destination: string | null;
  choose: () => void;
  exportsDir: string;
}) =>
  desktop ? (
    <div className="row">
      <button type="button" onClick={choose}>
        Choose a folder…
      </button>
      <span className={destination ? '' : 'muted'}>{destination ?? 'No folder chosen yet'}</span>
    </div>
  ) : (
    <p className="muted">
      Browser mode: the files are written to <code>{exportsDir}</code> and offered as downloads.
    </p>
  );

/** "Files": what is written, for which program, in which zone, and where. */
export const ExportFiles = ({
  studyK,
  destination,
  ...props
}: ChoicesProps & {
  /** The study's own baseline sessions (its change statistics setting). */
  studyK: number;
  destination: Parameters<typeof DestinationField>[0];
}) => {
  const { choices, change } = props;
  return (
    <Section title="Files">
      <FilesFields choices={choices} change={change} />
      <ProgramField {...props} />
      <div className="grid-form">
        <TextField
          label="Time zone of the local-time columns"
          value={choices.timeZone}
          onChange={(e) => change({ timeZone: e.target.value })}
          required
          hint="An IANA name such as Europe/Berlin. Times are also always given in UTC."
        />
        {choices.forms.includes('summary') && (
          <TextField
            label="Sessions in each baseline (summary)"
            type="number"
            min={1}
            max={20}
            value={choices.baselineSessions ?? studyK}
            onChange={(e) => change({ baselineSessions: Number(e.target.value) })}
            hint="The baseline is the mean of a participant's first sessions of a measure within the selection, per API version, once all of them exist, as on the participant's timeline (the study's setting unless changed here)."
          />
        )}
      </div>
      <Checkbox
        label="Also write the link file (participant code ↔ service account id)"
        checked={choices.link}
        onChange={(link) => change({ link })}
        hint="participant_accounts.csv is the only file that links your pseudonyms to the service's accounts. Keep it apart from the data."
      />
      <DestinationField {...destination} />
    </Section>
  );
};
