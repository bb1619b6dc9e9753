/** Local acoustic measures and quality control of a recording (local-measures.service.ts). */
import type { acousticsContract } from '../../../shared/contract/acoustics.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const acousticsHandlers = (d: HostDeps): HandlersOf<typeof acousticsContract> => ({
  async 'acoustics.planQuality'({ planId }) {
    const plan = d.plans.get(planId);
    if (!plan) return ok(null);
    // The files the preview would import (a file refused at once for its size is never read).
    const paths = plan.files.filter((f) => f.action !== 'unassigned' && f.sha256 !== null).map((f) => f.path);
    const checked = await d.service.assessFiles(paths);
    return ok(
      checked.map((c) => ({
        ...c,
        quality: c.quality ? { ...c.quality, reasons: [...c.quality.reasons] } : null,
      })),
    );
  },
  'acoustics.pitchTrack': async ({ recordingId }) => {
    const m = await d.service.localMeasurement(recordingId);
    const t = m ? await d.service.localPitchTrack(recordingId) : null;
    if (!m || !t) return ok(null);
    const s = m.settings;
    return ok({
      firstTime: t.firstTime,
      step: t.step,
      f0: Array.from(t.f0, (f) => Math.round(f * 100) / 100),
      pitchFloorHz: s.pitchFloor ?? null,
      pitchCeilingHz: s.pitchCeiling ?? null,
      engineVersion: m.engineVersion,
    });
  },
  'acoustics.recording': async ({ recordingId }) => {
    const m = await d.service.localMeasurement(recordingId);
    if (!m) return ok(null);
    const s = m.settings;
    const problem = m.problem?.detail ?? null;
    return ok({
      measuredAt: m.measuredAt,
      engineVersion: m.engineVersion,
      pitchFloorHz: s.pitchFloor ?? null,
      pitchCeilingHz: s.pitchCeiling ?? null,
      problem,
      quality: m.quality ? { ...m.quality, reasons: [...m.quality.reasons] } : null,
      measures: { ...m.measures },
    });
  },
});
