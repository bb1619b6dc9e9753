/**
 * Validation and hashing throughput on a folder of 1,000 WAV files, side by side with the common
 * scripted approach (`ffprobe` once per file) and with the physical limit (read every byte and SHA-256
 * it, nothing else), in one run, as ratios. Voicescope's figure is its real import preview
 * (planImport): read, SHA-256, container probe, header checks, speech estimate, verdict, participant
 * from the file name, duplicate lookup; then the commit of that preview (its CPU time is printed
 * beside it). Files are generated first, so all three read from a warm page cache: the comparison is
 * of processing, not of the disk.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb } from '../../main/db/open';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { commitImport } from '../../main/import/import-commit';
import { planImport } from '../../main/import/import-plan';
import { makeWav } from '../fixtures/audio';

const FILES = Number(process.env['VS_BENCH_FILES'] ?? 1_000);

export const benchImport = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-importbench-'));
  const folder = join(dir, 'wav');
  mkdirSync(folder);
  try {
    let bytes = 0;
    for (let i = 0; i < FILES; i++) {
      const wav = makeWav({ seconds: 40 + (i % 7), speechSeconds: 34, seed: i + 1 });
      bytes += wav.byteLength;
      writeFileSync(join(folder, `P${String(i % 50).padStart(3, '0')}_s${i}.wav`), wav);
    }
    const files = readdirSync(folder).map((f) => join(folder, f));
    const mb = bytes / 1e6;
    const rows: { name: string; s: number }[] = [];

    // Physical limit: read and hash every byte.
    let t = performance.now();
    for (const f of files)
      createHash('sha256')
        .update(await readFile(f))
        .digest('hex');
    rows.push({ name: 'read + SHA-256 only (physical limit)', s: (performance.now() - t) / 1000 });

    // Voicescope's import preview.
    const { db } = openStudyDb(':memory:');
    db.prepare(
      `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
    ).run();
    db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`).run();
    const store = sqliteStore(db);
    t = performance.now();
    const plan = await planImport(
      { store },
      {
        studyId: 1,
        paths: [folder],
        filenamePattern: '{participant}_{session}.wav',
        timeZone: 'UTC',
        analyses: ['wellbeing'],
        isolateOldestSpeaker: false,
        convert: false,
      },
      { measureSpeech: false },
    );
    rows.push({
      name: 'Voicescope import preview, first pass (hash + header + verdict)',
      s: (performance.now() - t) / 1000,
    });
    // Its commit: the batch, its participants and every recording, in one transaction.
    const cpu0 = process.cpuUsage();
    t = performance.now();
    const committed = await commitImport({ store }, plan, { convertedDir: dir, now: Date.now });
    const commitMs = performance.now() - t;
    const commitCpu = process.cpuUsage(cpu0);
    // The second pass, the speech estimate in worker threads, on a sample of the files.
    const sample = files.slice(0, Math.min(20, files.length));
    const { parseWavHeader } = await import('../../main/audio/wav');
    const { measureSpeechInParallel } = await import('../../main/audio/speech-pool');
    const jobs = sample.map((path) => {
      const h = parseWavHeader(new Uint8Array(readFileSync(path)));
      if (!h.ok) throw new Error(h.error.detail);
      return { path, info: h.value, choice: 'auto' as const };
    });
    const audioSeconds = jobs.reduce((s, j) => s + j.info.durationSeconds, 0);
    t = performance.now();
    await measureSpeechInParallel(jobs);
    const speechS = (performance.now() - t) / 1000;
    const accepted = plan.counts.upload;

    // The common scripted approach: one ffprobe process per file (no hash, no speech estimate).
    const ffprobe = spawnSync('ffprobe', ['-version'], { encoding: 'utf8' });
    if (ffprobe.status === 0) {
      t = performance.now();
      for (const f of files)
        spawnSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', f], {
          encoding: 'utf8',
        });
      rows.push({ name: 'ffprobe once per file (metadata only)', s: (performance.now() - t) / 1000 });
    }
    db.close();

    const limit = rows[0]!.s;
    const ours = rows[1]!.s;
    const out = [
      `${FILES} WAV files, ${mb.toFixed(0)} MB (16 kHz mono PCM, 40–46 s each); ${accepted} accepted by the preview.`,
      ...rows.map(
        (r) =>
          `${r.name.padEnd(72)} ${r.s.toFixed(2).padStart(7)} s  ${(mb / r.s).toFixed(0).padStart(5)} MB/s  ${(FILES / r.s).toFixed(0).padStart(5)} files/s`,
      ),
      `ratio Voicescope ÷ physical limit (time): ${(ours / limit).toFixed(2)}`,
      `import commit of the preview (${committed.recordings} recordings): ${commitMs.toFixed(1)} ms, CPU ${((commitCpu.user + commitCpu.system) / 1000).toFixed(1)} ms`,
      `speech estimate (Silero, worker threads): ${jobs.length} files, ${(audioSeconds / 60).toFixed(1)} min of audio in ${speechS.toFixed(1)} s = ${((speechS / audioSeconds) * 60).toFixed(2)} s per audio minute`,
    ];
    if (rows[2])
      out.push(
        `ratio ffprobe per file ÷ Voicescope (time): ${(rows[2].s / ours).toFixed(2)} (ffprobe ${ffprobe.stdout.split('\n')[0]})`,
      );
    else out.push('ffprobe not installed (apt-get install ffmpeg): comparison skipped.');
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchImport()) console.log(l);
