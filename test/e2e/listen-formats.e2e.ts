/**
 * Every decodable format is heard and seen in the window: a FLAC and a WebM (Opus) recording play as
 * they are (Chromium plays both), an AIFF recording (Chromium does not play AIFF) through the WAV copy
 * the host decodes. For each, the recording's page draws its waveform and the media element plays.
 */
import { spawnSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../renderer/src/app/paths';
import { makeWav } from '../fixtures/audio';
import { hasTool } from '../support/reference-tools';
import { expect, openScreen, shoot, test } from './support/fixtures';
import { must } from './support/study-with-results';

const FILES = [
  { file: 'P-001-flac.flac', args: ['-c:a', 'flac'], servedAs: 'audio/flac' },
  {
    file: 'P-002-webm.webm',
    args: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '64k'],
    servedAs: 'audio/webm',
  },
  { file: 'P-003-aiff.aiff', args: [], servedAs: 'audio/wav' },
] as const;

test('FLAC, WebM and AIFF recordings show their waveform and play', async ({ page, host }) => {
  test.skip(!hasTool('ffmpeg'), 'needs Debian ffmpeg to encode the recordings');
  test.setTimeout(240_000);
  const folder = host.incoming;
  mkdirSync(folder, { recursive: true });
  const source = join(folder, 'source.wav.tmp');
  writeFileSync(source, makeWav({ seconds: 40, speechSeconds: 34, seed: 7 }));
  const rows = ['file,participant,recorded_at,session'];
  for (const [i, f] of FILES.entries()) {
    const r = spawnSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'wav',
      '-i',
      source,
      ...f.args,
      join(folder, f.file),
    ]);
    if (r.status !== 0) throw new Error(String(r.stderr));
    rows.push(`${f.file},P-00${i + 1},2026-01-0${i + 1} 09:30,week 1`);
  }
  writeFileSync(join(folder, 'manifest.csv'), rows.join('\n') + '\n');

  const profile = must(await host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }), 'sandbox');
  const study = must(await host.rpc('studies.create', { name: 'Formats', profileId: profile.id }), 'study');
  const plan = must(
    await host.rpc('imports.preview', {
      studyId: study.id,
      paths: [],
      manifestPath: join(folder, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: true,
    }),
    'preview',
  );
  expect(plan.totalFiles).toBe(FILES.length);
  must(
    await host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label: 'Formats' }),
    'commit',
  );
  const list = must(
    await host.rpc('recordings.page', { studyId: study.id, sort: 'id', dir: 'asc', offset: 0, limit: 10 }),
    'recordings',
  );
  expect(list.rows).toHaveLength(FILES.length);

  for (const [i, f] of FILES.entries()) {
    const rid = list.rows[i]!.id;
    const audioFacts = must(await host.rpc('recordings.audio', { recordingId: rid }), 'audio');
    expect(audioFacts.sources.find((s) => s.which === 'original')?.contentType, f.file).toBe(f.servedAs);
    await openScreen(page, paths.study(study.id).recording(rid));
    await expect(page.getByRole('heading', { name: 'Listen and look' })).toBeVisible();
    await expect(page.getByTestId('waveform'), f.file).toHaveAttribute('data-ready', 'true', {
      timeout: 60_000,
    });
    const audio = page.getByTestId('recording-audio');
    await audio.evaluate((a) => {
      (a as HTMLAudioElement).addEventListener('playing', () => a.setAttribute('data-playing', 'yes'));
    });
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(audio, f.file).toHaveAttribute('data-playing', 'yes');
    await expect
      .poll(() => audio.evaluate((a) => (a as HTMLAudioElement).currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.3);
    const duration = await audio.evaluate((a) => (a as HTMLAudioElement).duration);
    expect(Math.abs(duration - 40), `${f.file}: duration`).toBeLessThan(0.1);
    if (i === 0) await showsConversion(page);
  }
});

/** The FLAC's page says how its copy was made, readable in both themes and at 200 % zoom. */
const showsConversion = async (page: Page) => {
  await expect(page.getByText(/^Decoded from FLAC \(flac\) by .+; channel 1 sent as mono;/)).toBeVisible();
  await shoot(page, 'recording-converted');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'recording-converted-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // 200 % of a 1280 × 800 window: 640 × 400 CSS pixels; the copy's hash wraps instead of widening the page.
  await page.setViewportSize({ width: 640, height: 400 });
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways, 'the recording page scrolls sideways at 200 %').toBeLessThanOrEqual(0);
  await shoot(page, 'recording-converted-200');
  await page.setViewportSize({ width: 1280, height: 800 });
};
