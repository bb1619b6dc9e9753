/**
 * Validates the local speech estimate (main/audio/speech-estimate.ts) against reference annotations:
 * the pyannote AMI clips (30 s meeting excerpts, 16 kHz mono) with RTTM speaker turns, reference =
 * the union of annotated turns (so pauses inside a turn count as speech, as the service counts them).
 *
 *   npx tsx scripts/validation/speech-estimate.ts [--corpus <folder>] [--json]
 *
 * The corpus folder (default: $VOICESCOPE_CORPUS, else /work/corpus) must hold pyannote/*.wav and
 * pyannote/*.rttm; fetch it with scripts/validation/fetch-speech-corpus.sh. Prints, per clip, the
 * reference and the estimate, then the mean absolute error, the mean signed error, the verdicts the
 * import would give (with the borderline band of main/import/local-verdict.ts) and the compute time
 * per minute of audio.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SILERO_METHOD as SPEECH_METHOD } from '../../main/audio/silero-speech';
import { measureFileSpeech } from '../../main/audio/file-speech';
import { parseWavHeader } from '../../main/audio/wav';
import { speechBand } from '../../main/import/local-verdict';
import { corpusClips, readRttmReference } from './speech-corpus';

const args = process.argv.slice(2);
const at = args.indexOf('--corpus');
const root = at >= 0 ? args[at + 1]! : (process.env['VOICESCOPE_CORPUS'] ?? '/work/corpus');

export interface ClipResult {
  readonly clip: string;
  readonly seconds: number;
  readonly reference: number;
  readonly estimate: number;
  readonly band: string;
  readonly computeMs: number;
}

export const validateSpeechEstimate = async (corpus: string): Promise<ClipResult[]> => {
  const out: ClipResult[] = [];
  const reference = readRttmReference(join(corpus, 'pyannote'));
  for (const clip of corpusClips(join(corpus, 'pyannote'))) {
    const bytes = new Uint8Array(readFileSync(join(corpus, 'pyannote', `${clip}.wav`)));
    const info = parseWavHeader(bytes);
    if (!info.ok) throw new Error(`${clip}: ${info.error.detail}`);
    const t = performance.now();
    const path = join(corpus, 'pyannote', `${clip}.wav`);
    const est = (await measureFileSpeech({ path, choice: 'auto' })).sent.speechSeconds;
    const computeMs = performance.now() - t;
    const ref = reference.get(clip)!(info.value.durationSeconds);
    out.push({
      clip,
      seconds: info.value.durationSeconds,
      reference: ref,
      estimate: est,
      band: speechBand(est),
      computeMs,
    });
  }
  return out;
};

export const summarise = (rows: readonly ClipResult[]) => {
  const errors = rows.map((r) => r.estimate - r.reference);
  const mae = errors.reduce((s, e) => s + Math.abs(e), 0) / rows.length;
  const mean = errors.reduce((s, e) => s + e, 0) / rows.length;
  const audio = rows.reduce((s, r) => s + r.seconds, 0);
  const compute = rows.reduce((s, r) => s + r.computeMs, 0) / 1000;
  return {
    clips: rows.length,
    maeSeconds: mae,
    meanSignedSeconds: mean,
    maxAbsSeconds: Math.max(...errors.map(Math.abs)),
    refusedWithEnough: rows.filter((r) => r.reference >= 30.5 && r.band === 'too_short').length,
    acceptedWithTooLittle: rows.filter((r) => r.reference <= 29.5 && r.band === 'enough').length,
    secondsPerAudioMinute: (compute / audio) * 60,
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await validateSpeechEstimate(root);
  const s = summarise(rows);
  if (args.includes('--json'))
    console.log(JSON.stringify({ method: SPEECH_METHOD, rows, summary: s }, null, 2));
  else {
    console.log(`method: ${SPEECH_METHOD}; corpus: ${root}/pyannote`);
    console.log('clip      length  reference  estimate   error  verdict');
    for (const r of rows)
      console.log(
        `${r.clip.padEnd(8)} ${r.seconds.toFixed(1).padStart(7)} ${r.reference.toFixed(2).padStart(10)} ${r.estimate.toFixed(2).padStart(9)} ${(r.estimate - r.reference).toFixed(2).padStart(7)}  ${r.band}`,
      );
    console.log(
      `MAE ${s.maeSeconds.toFixed(2)} s, mean signed ${s.meanSignedSeconds.toFixed(2)} s, max |error| ${s.maxAbsSeconds.toFixed(2)} s; ` +
        `refused with >= 30.5 s: ${s.refusedWithEnough}; plainly accepted with <= 29.5 s: ${s.acceptedWithTooLittle}; ` +
        `${s.secondsPerAudioMinute.toFixed(3)} s compute per audio minute`,
    );
  }
}
