/**
 * Listen and look (issue 16): on a recording's page the researcher plays the file (the media element
 * reaches `playing` and its time advances), sees the speech the workstation's estimate found shaded on
 * the waveform (the shaded regions are the estimate's segments), a spectrogram and a time axis, and
 * controls it from the keyboard. The audio comes through the bridge with a session ticket and byte
 * ranges, never the launch token in an address. axe-core finds nothing on the page; screenshots at
 * 100 % and 200 % zoom, light and dark.
 */
import { paths } from '../../renderer/src/app/paths';
import { checkA11y, expect, openScreen, shoot, test } from './support/fixtures';
import { seedStudyWithResults } from './support/study-with-results';

test('a recording can be heard and seen: play, speech shaded as estimated, keyboard, ranges', async ({
  page,
  host,
}) => {
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
