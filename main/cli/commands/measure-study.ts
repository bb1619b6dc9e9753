/**
 * `voicescope measure --study <name|id> [--again] [--pitch-floor <hz>] [--pitch-ceiling <hz>]`: the local
 * acoustic measures and quality control of a study's recordings not measured yet (every recording with
 * --again), stored in the study for the recording page and the exports. A pitch range given here is kept
 * as the study's range. Exit 3 when some recording could not be measured.
 */
import type { PitchSettings } from '../../../shared/acoustics/pitch-settings';
import { EXIT, UsageError, type CommandInput } from '../command';
import { resolveStudy } from '../lookup';
import { openCliStudyService } from '../open-study';

export const measureStudy = async (
  input: CommandInput,
  pitch: (fallback: PitchSettings) => PitchSettings,
): Promise<number> => {
  const { values: v, out } = input;
  const svc = await openCliStudyService(v, out);
  if (typeof svc === 'number') return svc;
  try {
    const study = await resolveStudy(svc, v.study);
    const settings = pitch(await svc.localMeasureSettings(study.id));
    await svc.setLocalMeasureSettings(study.id, settings);
    const report = await svc.measureStudy(study.id, {
      settings,
      again: v.again === true,
      onProgress: (done, total) => out.progress(`Measuring: ${done} of ${total} recordings done`),
    });
    out.done();
    for (const f of report.failed)
      out.problem(
        `${f.path}: not measured. ${f.detail}`,
        'Check that the recording is a readable WAV file.',
        {
          recordingId: f.recordingId,
          file: f.path,
        },
      );
    out.say(
      'measured',
      `${report.measured} recording(s) of "${study.name}" measured (pitch ${settings.pitchFloor}-${settings.pitchCeiling} Hz)${report.failed.length > 0 ? `, ${report.failed.length} could not be` : ''}.`,
      { study: study.name, measured: report.measured, failed: report.failed.length, settings },
    );
    return report.failed.length > 0 ? EXIT.refused : EXIT.ok;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`voicescope: ${e.message}\n`);
    return EXIT.usage;
  } finally {
    await svc.close();
  }
};
