/**
 * The speech-estimate validation corpus: which clips there are and their reference speech time, the
 * union of the RTTM speaker turns (overlaps counted once, pauses inside a turn counted as speech).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Clip names (without .wav) that have RTTM turns and audio in the folder. */
export const corpusClips = (folder: string): string[] => {
  const ref = readRttmReference(folder);
  return [...ref.keys()].filter((c) => existsSync(join(folder, `${c}.wav`))).sort();
};

/** Clip → (length of the clip in seconds → seconds of reference speech). */
export const readRttmReference = (folder: string): Map<string, (clipSeconds: number) => number> => {
  const turns = new Map<string, [number, number][]>();
  for (const f of readdirSync(folder).filter((n) => n.endsWith('.rttm'))) {
    for (const line of readFileSync(join(folder, f), 'utf8').split('\n')) {
      const p = line.trim().split(/\s+/);
      if (p[0] !== 'SPEAKER' || p.length < 5) continue;
      const start = Number(p[3]);
      const dur = Number(p[4]);
      const list = turns.get(p[1]!) ?? [];
      list.push([start, start + dur]);
      turns.set(p[1]!, list);
    }
  }
  const out = new Map<string, (clipSeconds: number) => number>();
  for (const [clip, list] of turns) {
    out.set(clip, (clipSeconds) => {
      const sorted = list.map(([a, b]) => [a, Math.min(b, clipSeconds)] as const).sort((x, y) => x[0] - y[0]);
      let total = 0;
      let curA = -1;
      let curB = -1;
      for (const [a, b] of sorted) {
        if (b <= a) continue;
        if (a > curB) {
          total += curB - curA;
          curA = a;
          curB = b;
        } else if (b > curB) curB = b;
      }
      return total + (curB - curA);
    });
  }
  return out;
};
