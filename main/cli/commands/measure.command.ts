/**
 * `voicescope measure <file|folder>...`: the local acoustic measures (docs/acoustics.md) of audio files
 * in any format the product decodes (docs/audio-formats.md), without a study or a workspace, as lab
 * scripts use Praat. Folders are searched recursively for files whose name says audio, as the import's. Files are measured on worker threads, two at a time. One line per file, or with
 * --json one object per file (`kind: "measures"`, `file`, every measure key, `quality`); --csv writes
 * one row per file with the same columns. Exit 3 when some file could not be measured.
 * With --study, the recordings of a study instead (measure-study.ts).
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { stringify } from 'csv-stringify/sync';

import { DEFAULT_PITCH_SETTINGS, type PitchSettings } from '../../../shared/acoustics/pitch-settings';
import { MEASURE_KEYS, MEASURES } from '../../acoustics/measures';
import type { MeasureFileProblem } from '../../acoustics/measure';
import { measureFiles } from '../../acoustics/pool';
import { isAudioFileName } from '../../import/import-plan';
import { EXIT, UsageError, type StandaloneCommand } from '../command';
import { measureStudy } from './measure-study';

const audioFilesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) =>
      e.isDirectory()
        ? audioFilesUnder(join(dir, e.name))
        : e.isFile() && isAudioFileName(e.name)
          ? [join(dir, e.name)]
          : [],
    );

/** What to do about a file the decoders could not measure, by their reason. */
const adviceFor = (code: MeasureFileProblem['code']): string =>
  code === 'no_decoder'
    ? 'Convert it to WAV (docs/audio-formats.md lists the formats measured as they are).'
    : code === 'unknown_format'
      ? 'Check that it is an audio file; docs/audio-formats.md lists the formats measured.'
      : 'Check that the file is whole: open it in an audio player, or export it again from the recorder.';

const hz = (v: string | undefined, flag: string, fallback: number): number => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag} must be a frequency in Hz, e.g. 75.`);
  return n;
};

const round = (v: number | null): number | null => (v === null ? null : Number(v.toPrecision(6)));

export const measureCommand: StandaloneCommand = {
  name: 'measure',
  help: `  measure <file|folder>... [--csv <out.csv>] [--pitch-floor <hz>] [--pitch-ceiling <hz>]
                                            local acoustic measures of audio files (Praat's standard
                                            settings; pitch range 75-500 Hz unless set), no study needed
  measure --study <name|id> [--again] [--pitch-floor <hz>] [--pitch-ceiling <hz>]
                                            the same measures and quality control of a study's
                                            recordings not measured yet, stored in the study`,
  workspace: false,
  run: async (input) => {
    const { values: v, sub, rest, out } = input;
    const args = [sub, ...rest].filter((a): a is string => a !== undefined);
    const pitch = (fallback: PitchSettings): PitchSettings => {
      const s = {
        pitchFloor: hz(v['pitch-floor'], 'pitch-floor', fallback.pitchFloor),
        pitchCeiling: hz(v['pitch-ceiling'], 'pitch-ceiling', fallback.pitchCeiling),
      };
      if (s.pitchCeiling <= s.pitchFloor)
        throw new UsageError('--pitch-ceiling must be higher than --pitch-floor.');
      return s;
    };
    let settings: PitchSettings;
    try {
      if (v.study !== undefined) {
        if (args.length > 0) throw new UsageError('Give either files and folders or --study, not both.');
        return await measureStudy(input, pitch);
      }
      if (args.length === 0) throw new UsageError('Give at least one audio file or folder to measure.');
      settings = pitch(DEFAULT_PITCH_SETTINGS);
    } catch (e) {
      // A command without a workspace reports its own usage errors (the dispatcher does it for the others).
      if (!(e instanceof UsageError)) throw e;
      process.stderr.write(`voicescope: ${e.message}\n`);
      return EXIT.usage;
    }

    const files: string[] = [];
    let problems = 0;
    for (const a of args) {
      const path = resolve(a);
      let isDir: boolean;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        out.problem(`${a}: no such file or folder.`, 'Check the path.', { file: a });
        problems++;
        continue;
      }
      if (!isDir) files.push(path);
      else {
        const found = audioFilesUnder(path);
        if (found.length === 0)
          out.problem(
            `${a}: the folder holds no audio file.`,
            'Give the folder the recordings are in (docs/audio-formats.md lists the formats measured).',
            { file: a },
          );
        files.push(...found);
      }
    }

    const rows: Record<string, unknown>[] = [];
    let done = 0;
    const results = await measureFiles(files, settings, {
      onResult: () => out.progress(`Measuring: ${++done} of ${files.length} files done`),
    });
    for (const [i, r] of results.entries()) {
      const file = files[i]!;
      if (!r.ok) {
        problems++;
        out.problem(`${file}: not measured. ${r.error.detail}`, adviceFor(r.error.code), { file });
        continue;
      }
      const m = r.value.measures;
      const row: Record<string, unknown> = { file };
      for (const k of MEASURE_KEYS) row[k] = round(m[k]);
      const q = r.value.quality;
      rows.push({ ...row, quality_verdict: q.verdict, quality_reasons: q.reasons.join('; ') });
      out.say(
        'measures',
        `${file}\n${MEASURE_KEYS.map((k) => `  ${MEASURES[k].label}: ${m[k] === null ? '—' : `${round(m[k])} ${MEASURES[k].unit}`}`).join('\n')}\n  Recording quality: ${q.verdict}${q.reasons.length > 0 ? ` (${q.reasons.join('; ')})` : ''}`,
        { ...row, quality: q, settings },
      );
    }
    out.done();
    if (v.csv !== undefined) {
      const columns = ['file', ...MEASURE_KEYS, 'quality_verdict', 'quality_reasons'];
      writeFileSync(v.csv, stringify(rows, { header: true, columns }));
      out.say('csv', `Measures of ${rows.length} files written to ${v.csv}.`, {
        csv: v.csv,
        files: rows.length,
      });
    }
    return problems > 0 ? EXIT.refused : EXIT.ok;
  },
};
