/**
 * A planned file of the import preview in words: its audio, why it gets its action, what to do about a
 * refusal, and the channel chosen for multichannel files as a select's value.
 */
import type { PlannedFile } from '../../../../shared/study';
import { seenElsewhereText } from '../../../../shared/seen-elsewhere';
import { fmtNumber, fmtSeconds } from '../../lib/format';
import { ACTION } from './import-labels';
import { lastSegment, type ChannelChoice } from './import-choice';

/** Format, channels, sample rate and duration, e.g. "WAV stereo 44.1 kHz, 42 s"; "—" when unreadable. */
export const audioInWords = (f: PlannedFile): string => {
  if (!f.format) return '—';
  const ch =
    f.channels === null
      ? ''
      : f.channels === 1
        ? ' mono'
        : f.channels === 2
          ? ' stereo'
          : ` ${f.channels} ch`;
  const rate = f.sampleRateHz === null ? '' : ` ${fmtNumber(f.sampleRateHz / 1000)} kHz`;
  return `${f.format.toUpperCase()}${ch}${rate}, ${fmtSeconds(f.durationSeconds)}`;
};

/** Why the file gets its action: the refusals (or else every finding), the duplicate it repeats, the missing participant. */
export const reasonOf = (f: PlannedFile): string => {
  if (f.action === 'unassigned') return f.assignmentProblem ?? 'No participant.';
  if (f.action === 'duplicate' && f.seenElsewhere?.length) return seenElsewhereText(f.seenElsewhere);
  if (f.action === 'duplicate' && f.duplicateOf)
    return `Same audio as ${f.duplicateOf.recordingId !== null ? `recording ${f.duplicateOf.recordingId} (${lastSegment(f.duplicateOf.path)})` : lastSegment(f.duplicateOf.path)}.`;
  const refusals = f.verdict.findings.filter((x) => x.severity === 'refuse');
  const shown = refusals.length ? refusals : f.verdict.findings;
  const said = shown.map((x) => x.message).join(' ');
  if (f.action === 'convert_and_upload') return `${said} A mono 16 kHz copy is sent instead.`;
  return said || ACTION[f.action].explain;
};

/** What the researcher can do about a file that is refused or has no participant. */
export const whatToDo = (f: PlannedFile): string =>
  f.action === 'unassigned'
    ? 'List it in the manifest, or set a file-name pattern it matches.'
    : f.verdict.findings
        .filter((x) => x.severity === 'refuse')
        .map((x) => x.action)
        .join(' ') || '—';

export const channelValue = (c: ChannelChoice): string => String(c);
export const parseChannel = (v: string): ChannelChoice => (v === 'auto' || v === 'mix' ? v : Number(v));
