/**
 * Local acoustic measures and recording quality control for a study's recordings: computed on worker
 * threads (main/acoustics/pool.ts), never on the calling thread, for the recordings that have none yet,
 * and stored with their provenance (engine version, pitch range). The audio read is the converted copy
 * when the import made one (what the service heard), else the original file.
 */
import {
  DEFAULT_PITCH_SETTINGS,
  PitchSettingsSchema,
  type PitchSettings,
} from '../../shared/acoustics/pitch-settings';
import { ENGINE } from '../acoustics/measure';
import { assessFiles, measureFiles } from '../acoustics/pool';
import type { QualityReport } from '../acoustics/quality';
import type { PitchTrack } from '../acoustics/pitch-track';
import {
  measurementOf,
  pitchTrackOf,
  recordingsToMeasure,
  saveMeasurement,
  type StoredMeasurement,
} from '../db/repos/local-measures.repo';
import { readSetting, writeSetting } from '../db/repos/settings.repo';
import type { ServiceContext } from './service-context';

export interface MeasureStudyOptions {
  /** The pitch range; by default the study's (setLocalMeasureSettings) or 75-500 Hz. */
  readonly settings?: PitchSettings;
  /** Measure every recording again, not only those without measures. */
  readonly again?: boolean;
  readonly threads?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface MeasureStudyReport {
  readonly measured: number;
  /** Recordings whose audio could not be read or decoded: stored with the problem, not measured. */
  readonly failed: readonly {
    readonly recordingId: number;
    readonly path: string;
    readonly detail: string;
  }[];
  readonly settings: PitchSettings;
}

export interface LocalMeasuresService {
  /** The pitch range local measures of the study use (75-500 Hz unless set). */
  localMeasureSettings(studyId: number): Promise<PitchSettings>;
  setLocalMeasureSettings(studyId: number, settings: PitchSettings): Promise<void>;
  measureStudy(studyId: number, opts?: MeasureStudyOptions): Promise<MeasureStudyReport>;
  /**
   * Measures the study's unmeasured recordings in the background (after an import), one worker thread,
   * one run per study at a time: asked again while a run is going, it runs once more afterwards.
   * Resolves when done; never rejects (a failure is reported to `onError`).
   */
  measureInBackground(
    studyId: number,
    onProgress?: (done: number, total: number) => void,
    onError?: (e: unknown) => void,
  ): Promise<void>;
  /** The quality control of files not imported yet (the import preview), on worker threads; in the order given. */
  assessFiles(
    paths: readonly string[],
  ): Promise<{ path: string; quality: QualityReport | null; problem: string | null }[]>;
  /** One recording's local measures and quality control; null when not measured yet. */
  localMeasurement(recordingId: number): Promise<StoredMeasurement | null>;
  /** The F0 track of its local measures; null when not measured, or measured before tracks were kept. */
  localPitchTrack(recordingId: number): Promise<PitchTrack | null>;
}

const settingKey = (studyId: number): string => `local_measures.settings.study.${studyId}`;

export const localMeasuresService = (ctx: ServiceContext): LocalMeasuresService => {
  const { store, iso } = ctx;
  const settingsOf = async (studyId: number): Promise<PitchSettings> =>
    (await readSetting(store, settingKey(studyId), PitchSettingsSchema)) ?? DEFAULT_PITCH_SETTINGS;
  const running = new Map<number, Promise<void>>();
  const askedAgain = new Set<number>();
  const self: LocalMeasuresService = {
    localMeasureSettings: settingsOf,
    async setLocalMeasureSettings(studyId, settings) {
      await writeSetting(store, settingKey(studyId), settings);
    },
    async measureStudy(studyId, opts = {}) {
      const settings = opts.settings ?? (await settingsOf(studyId));
      const todo = await recordingsToMeasure(store, studyId, opts.again ?? false);
      const paths = todo.map((r) => r.uploadPath ?? r.sourcePath);
      const failed: { recordingId: number; path: string; detail: string }[] = [];
      let done = 0;
      opts.onProgress?.(0, todo.length);
      await measureFiles(paths, settings, {
        ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
        withPitchTrack: true,
        // Stored as each file finishes, once (the pool waits for it): a stop half-way keeps what was measured.
        onResult: async (i, r) => {
          // The workspace was closed while the workers ran (the app quitting): nothing more is stored.
          if (!store.open) return;
          const rec = todo[i]!;
          const base = {
            recordingId: rec.id,
            measuredAt: iso(),
            engineVersion: `${ENGINE.name} ${ENGINE.version}`,
            settings: JSON.stringify(settings),
            audioPath: paths[i]!,
          };
          if (!r.ok) {
            failed.push({ recordingId: rec.id, path: paths[i]!, detail: r.error.detail });
            await saveMeasurement(store, {
              ...base,
              problem: JSON.stringify(r.error),
              quality: null,
              measures: {},
            });
          } else {
            await saveMeasurement(
              store,
              { ...base, problem: null, quality: r.value.quality, measures: r.value.measures },
              r.value.pitchTrack ?? null,
            );
          }
          opts.onProgress?.(++done, todo.length);
        },
      });
      return { measured: todo.length - failed.length, failed, settings };
    },
    measureInBackground(studyId, onProgress, onError) {
      const current = running.get(studyId);
      if (current) {
        askedAgain.add(studyId);
        return current;
      }
      const run = async (): Promise<void> => {
        do {
          askedAgain.delete(studyId);
          if (!store.open) return;
          await self.measureStudy(studyId, { threads: 1, ...(onProgress ? { onProgress } : {}) });
        } while (askedAgain.has(studyId));
      };
      const p = run()
        .catch((e: unknown) => onError?.(e))
        .finally(() => running.delete(studyId));
      running.set(studyId, p);
      return p;
    },
    async assessFiles(paths) {
      const results = await assessFiles(paths);
      return results.map((r, i) => ({
        path: paths[i]!,
        quality: r.ok ? r.value : null,
        problem: r.ok ? null : r.error.detail,
      }));
    },
    localMeasurement: (recordingId) => measurementOf(store, recordingId),
    localPitchTrack: (recordingId) => pitchTrackOf(store, recordingId),
  };
  return self;
};
