/**
 * Listen and look (issue 16): on a recording's page the researcher plays the file (the media element
 * reaches `playing` and its time advances), sees the speech the workstation's estimate found shaded on
 * the waveform (the shaded regions are the estimate's segments), a spectrogram and a time axis, and
 * controls it from the keyboard. The audio comes through the bridge with a session ticket and byte
 * ranges, never the launch token in an address. axe-core finds nothing on the page; screenshots at
 * 100 % and 200 % zoom, light and dark.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../renderer/src/app/paths';
import { encodeWav, makeSpeechLikeSignal } from '../fixtures/audio';
import { checkA11y, expect, openScreen, shoot, test } from './support/fixtures';
import { seedStudyWithResults } from './support/study-with-results';

test('a recording can be heard and seen: play, speech shaded as estimated, keyboard, ranges', async ({
  page,
  host,
}) => {
  // Seeding waits for the sandbox's analyses: on a loaded machine that alone can take minutes.
  test.setTimeout(420_000);
  const seeded = await seedStudyWithResults(host, { codes: ['P-001'], sessions: 1 });
  const rows = await host.rpc('recordings.page', {
    studyId: seeded.studyId,
    sort: 'id',
    dir: 'asc',
    offset: 0,
    limit: 1,
  });
  if (!rows.ok) throw new Error(rows.error.message);
  const rid = rows.value.rows[0]!.id;

  const media: { url: string; status: number; range: string | null }[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/download/media/'))
      media.push({ url: r.url(), status: r.status(), range: r.request().headers()['range'] ?? null });
  });
  await openScreen(page, paths.study(seeded.studyId).recording(rid));
  await expect(page.getByRole('heading', { name: 'Listen and look' })).toBeVisible();
  const waveform = page.getByTestId('waveform');
  await expect(waveform).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });

  // The shaded regions are the estimate's segments.
  const speech = await host.rpc('recordings.speech', { recordingId: rid });
  if (!speech.ok || !speech.value.available) throw new Error('no speech estimate');
  const segments = speech.value.segments;
  expect(segments.length).toBeGreaterThan(0);
  const total = segments.reduce((t, g) => t + g.end - g.start, 0);
  expect(total).toBeCloseTo(speech.value.speechSeconds, 6);
  const shaded = waveform.locator('[data-kind="speech"]');
  await expect(shaded).toHaveCount(segments.length);
  const drawn = await shaded.evaluateAll((els) =>
    els.map((e) => ({
      start: Number(e.getAttribute('data-start')),
      end: Number(e.getAttribute('data-end')),
      left: parseFloat((e as HTMLElement).style.left),
      right: parseFloat((e as HTMLElement).style.right),
    })),
  );
  const duration = await page
    .getByTestId('recording-audio')
    .evaluate((a) => (a as HTMLAudioElement).duration);
  drawn.forEach((d, i) => {
    expect(d.start).toBeCloseTo(segments[i]!.start, 6);
    expect(d.end).toBeCloseTo(segments[i]!.end, 6);
    // Where it is drawn: its share of the waveform's width (percent).
    expect(d.left).toBeCloseTo((segments[i]!.start / duration) * 100, 0);
    expect(100 - d.right).toBeCloseTo((segments[i]!.end / duration) * 100, 0);
  });
  // The seeded files hold 36 s of speech in 42 s; the estimate finds it within a few seconds.
  expect(speech.value.speechSeconds).toBeGreaterThan(30);
  await expect(page.locator('.spectrogram canvas').first()).toBeAttached({ timeout: 30_000 });

  // Playing: the element reaches `playing` and its time advances.
  const audio = page.getByTestId('recording-audio');
  await audio.evaluate((a) => {
    (a as HTMLAudioElement).addEventListener('playing', () => a.setAttribute('data-playing', 'yes'));
  });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(audio).toHaveAttribute('data-playing', 'yes');
  await expect
    .poll(() => audio.evaluate((a) => (a as HTMLAudioElement).currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.3);
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();

  // The keyboard: Space pauses, → seeks a second.
  await page.getByRole('group', { name: /^Waveform of the original file/ }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  const before = await audio.evaluate((a) => (a as HTMLAudioElement).currentTime);
  await page.keyboard.press('ArrowRight');
  await expect
    .poll(() => audio.evaluate((a) => (a as HTMLAudioElement).currentTime))
    .toBeCloseTo(before + 1, 1);
  await page.keyboard.press('+');
  await expect(page.getByRole('slider', { name: 'Zoom' })).toHaveValue('1');

  // Through the bridge with a ticket and byte ranges; never the launch token in an address.
  expect(media.length).toBeGreaterThan(0);
  expect(media.every((m) => m.url.includes('ticket=') && !m.url.includes(host.token))).toBe(true);
  expect(media.some((m) => m.status === 206 && m.range !== null)).toBe(true);
  const noTicket = await page.evaluate(
    (p) => fetch(p).then((r) => r.status),
    `/download/media/recordings/${rid}/original`,
  );
  expect(noTicket).toBe(403);

  await checkA11y(page, 'recording page with player');
  await shoot(page, 'recording-listen-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'recording-listen-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('speech with long pauses is shaded stretch by stretch, where the estimate found it', async ({
  page,
  host,
}) => {
  // 3 stretches of 11 s of speech-like sound with 3 s of silence between: the estimate finds three.
  const rate = 16_000;
  const parts = [0, 1, 2].map((k) =>
    makeSpeechLikeSignal({ seconds: 11, speechSeconds: 11, sampleRateHz: rate, seed: 40 + k }),
  );
  const gap = new Float32Array(3 * rate);
  const all = new Float32Array(parts.length * 11 * rate + 2 * gap.length);
  let at = 0;
  parts.forEach((p, k) => {
    all.set(p, at);
    at += p.length + (k < parts.length - 1 ? gap.length : 0);
  });
  writeFileSync(join(host.incoming, 'pauses.wav'), encodeWav([all], { sampleRateHz: rate, format: 'pcm16' }));
  writeFileSync(
    join(host.incoming, 'manifest.csv'),
    'file,participant,recorded_at,session\npauses.wav,P-101,2026-01-06 09:30,week 1\n',
  );
  const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  const profile = must(await host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }));
  const study = must(await host.rpc('studies.create', { name: 'Pauses', profileId: profile.id }));
  const plan = must(
    await host.rpc('imports.preview', {
      studyId: study.id,
      paths: [],
      manifestPath: join(host.incoming, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: false,
    }),
  );
  must(await host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label: 'Pauses' }));
  const rid = must(
    await host.rpc('recordings.page', { studyId: study.id, sort: 'id', dir: 'asc', offset: 0, limit: 1 }),
  ).rows[0]!.id;

  await openScreen(page, paths.study(study.id).recording(rid));
  const waveform = page.getByTestId('waveform');
  await expect(waveform).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  const speech = must(await host.rpc('recordings.speech', { recordingId: rid }));
  if (!speech.available) throw new Error(speech.reason);
  expect(speech.segments).toHaveLength(3);
  const shaded = waveform.locator('[data-kind="speech"]');
  await expect(shaded).toHaveCount(3);
  const drawn = await shaded.evaluateAll((els) =>
    els.map((e) => [Number(e.getAttribute('data-start')), Number(e.getAttribute('data-end'))]),
  );
  expect(drawn).toEqual(speech.segments.map((g) => [g.start, g.end]));
  // Each stretch covers its 11 s of sound (within the estimate's 0.1 s padding and 96 ms frames).
  speech.segments.forEach((g, k) => {
    expect(Math.abs(g.start - k * 14)).toBeLessThan(0.4);
    expect(Math.abs(g.end - (k * 14 + 11))).toBeLessThan(0.4);
  });
  await expect(page.getByText(/Shaded: 3 stretches of speech/)).toBeVisible();
  await checkA11y(page, 'recording page, speech with pauses');
  await shoot(page, 'recording-listen-pauses');
});
