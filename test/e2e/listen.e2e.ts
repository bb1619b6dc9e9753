/**
 * Listen and look: on a recording's page the researcher plays the file (the media element
 * reaches `playing` and its time advances), sees the speech the workstation's estimate found shaded on
 * the waveform (the shaded regions are the estimate's segments), a spectrogram and a time axis, and
 * controls it from the keyboard. The audio comes through the bridge with a session ticket and byte
 * ranges, never the launch token in an address. The F0 track of the local measures is drawn
 * over the spectrogram on its axes: every voiced frame of the stored track at its time and frequency,
 * inside the spectrogram's box, at 100 % and 200 % zoom, with a legend, a switch and a text alternative.
 * axe-core finds nothing on the page; screenshots at 100 % and 200 % zoom, light and dark.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { paths } from '../../renderer/src/app/paths';
import type { PitchTrackView } from '../../shared/contract/acoustics.contract';
import {
  SPECTROGRAM,
  frequencyToY,
  trackSummary,
  yToFrequency,
  type TrackFrames,
} from '../../renderer/src/features/recording-detail/spectrogram-axis';
import { encodeWav, makeSpeechLikeSignal } from '../fixtures/audio';
import { SCREENSHOTS, checkA11y, expect, openScreen, shoot, test } from './support/fixtures';
import { firstRecordingId, seedStudyWithResults } from './support/study-with-results';

/**
 * Reads the drawn pitch track back (each run's path, in the spectrogram's pixels) and checks it against
 * the stored track: every voiced frame drawn once, at x = its time over the full width and at the height
 * of its F0 on the spectrogram's frequency axis, every line inside the spectrogram's box.
 */
const expectTrackDrawn = async (page: Page, track: TrackFrames) => {
  const layer = page.getByTestId('pitch-track');
  await expect(layer).toBeVisible();
  const drawn = await layer.evaluate((svg) => {
    const box = svg.parentElement!.querySelector('.spectrogram')!.getBoundingClientRect();
    return {
      width: Number(svg.getAttribute('data-width')),
      duration: Number(svg.getAttribute('data-duration')),
      box: { top: box.top, bottom: box.bottom, left: box.left, right: box.right, height: box.height },
      svg: svg.getBoundingClientRect().toJSON() as { top: number; height: number },
      runs: [...svg.querySelectorAll('g[data-from]')].map((g) => {
        const line = g.querySelector('[data-run="pitch"]')!;
        const r = line.getBoundingClientRect();
        return {
          from: Number(g.getAttribute('data-from')),
          d: line.getAttribute('d')!,
          rect: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
        };
      }),
    };
  });
  expect(drawn.box.height).toBe(SPECTROGRAM.height);
  expect(drawn.svg.top).toBeCloseTo(drawn.box.top, 0);
  expect(drawn.svg.height).toBeCloseTo(SPECTROGRAM.height, 0);
  // Compared in plain code and asserted once: an expect per point would record tens of thousands of steps.
  const voiced = track.f0.filter((f) => f > 0).length;
  let frames = 0,
    unvoicedDrawn = 0,
    worstX = 0,
    worstY = 0,
    worstCents = 0,
    outside = 0;
  for (const run of drawn.runs) {
    const points = [...run.d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map(
      (m) => [Number(m[1]), Number(m[2])] as const,
    );
    points.forEach(([x, y], k) => {
      const i = run.from + k;
      const f = track.f0[i] ?? 0;
      frames++;
      if (!(f > 0)) {
        unvoicedDrawn++;
        return;
      }
      worstX = Math.max(
        worstX,
        Math.abs(x - ((track.firstTime + i * track.step) / drawn.duration) * drawn.width),
      );
      worstY = Math.max(worstY, Math.abs(y - frequencyToY(f)));
      worstCents = Math.max(worstCents, Math.abs(1200 * Math.log2(yToFrequency(y) / f)));
      if (y < 0 || y > SPECTROGRAM.height || x < 0 || x > drawn.width) outside++;
    });
    // Inside the spectrogram's box (the line's 2 px width aside); when zoomed in, lines beyond the
    // visible part are clipped by the box, so only the height is checked for them.
    if (run.rect.top < drawn.box.top - 2 || run.rect.bottom > drawn.box.bottom + 2) outside++;
  }
  expect({ frames, unvoicedDrawn, outside }).toEqual({ frames: voiced, unvoicedDrawn: 0, outside: 0 });
  // Drawn to 0.01 px: the place of each frame within 0.01 px, its F0 well under a cent off the stored value.
  expect(worstX).toBeLessThan(0.01);
  expect(worstY).toBeLessThan(0.01);
  expect(worstCents).toBeLessThan(1);
  return { frames, runs: drawn.runs.length, width: drawn.width, worstCents };
};

/**
 * The seconds each of the four pictures shows, read from where things are drawn: the waveform's
 * drawing against its scrolling box, the spectrogram's image against its box, the pitch track's
 * drawing against the spectrogram's box, and the ruler's labelled notches against its box (its
 * seconds per pixel from the notches one second apart).
 */
const visibleRanges = (page: Page, duration: number) =>
  page.evaluate((d) => {
    const range = (box: DOMRect, left: number, width: number) => ({
      from: ((box.left - left) / width) * d,
      to: ((box.right - left) / width) * d,
    });
    const scroller = document
      .querySelector('[data-testid="waveform"] > div')!
      .shadowRoot!.querySelector('[part~="scroll"]')!;
    const drawing = scroller.querySelector('[part~="wrapper"]')!.getBoundingClientRect();
    const spec = document.querySelector('.spectrogram')!;
    const images = [...spec.querySelectorAll('canvas:not([part="spec-labels"])')].map((c) =>
      c.getBoundingClientRect(),
    );
    const imgLeft = Math.min(...images.map((r) => r.left));
    const imgWidth = Math.max(...images.map((r) => r.right)) - imgLeft;
    const pitch = document.querySelector('[data-testid="pitch-track"]')!.getBoundingClientRect();
    const rulerBox = document.querySelector('.waveform-timeline')!.getBoundingClientRect();
    const notches = [...document.querySelectorAll('.waveform-timeline [part~="timeline-notch"]')]
      .map((n) => ({ x: n.getBoundingClientRect().left, text: (n.textContent ?? '').trim() }))
      .filter((n) => n.x >= rulerBox.left && n.x <= rulerBox.right);
    const labelled = notches.find((n) => n.text !== '');
    const xs = notches.map((n) => n.x).sort((a, b) => a - b);
    const pxPerSecond = xs.length > 1 ? (xs[xs.length - 1]! - xs[0]!) / (xs.length - 1) : NaN;
    const ruler = labelled
      ? {
          from: Number(labelled.text) - (labelled.x - rulerBox.left) / pxPerSecond,
          to: Number(labelled.text) + (rulerBox.right - labelled.x) / pxPerSecond,
        }
      : null;
    return {
      waveform: range(scroller.getBoundingClientRect(), drawing.left, drawing.width),
      spectrogram: range(spec.getBoundingClientRect(), imgLeft, imgWidth),
      pitch: range(
        document.querySelector('.spectrogram-box')!.getBoundingClientRect(),
        pitch.left,
        pitch.width,
      ),
      ruler,
    };
  }, duration);

/** All four show the waveform's seconds, within a tenth of a second. */
const expectOneTimeAxis = async (page: Page, duration: number, label: string) => {
  await expect
    .poll(
      async () => {
        const r = await visibleRanges(page, duration);
        const w = r.waveform;
        const off = [r.spectrogram, r.pitch, r.ruler].map((x) =>
          x === null ? Infinity : Math.max(Math.abs(x.from - w.from), Math.abs(x.to - w.to)),
        );
        return Math.max(...off);
      },
      { message: `one time axis ${label}`, timeout: 15_000 },
    )
    .toBeLessThan(0.1);
  const r = await visibleRanges(page, duration);
  console.log(
    `${label}: waveform ${r.waveform.from.toFixed(2)}-${r.waveform.to.toFixed(2)} s, spectrogram ${r.spectrogram.from.toFixed(2)}-${r.spectrogram.to.toFixed(2)} s, pitch ${r.pitch.from.toFixed(2)}-${r.pitch.to.toFixed(2)} s, ruler ${r.ruler?.from.toFixed(2)}-${r.ruler?.to.toFixed(2)} s`,
  );
  return r.waveform;
};

test('a recording can be heard and seen: play, speech shaded as estimated, keyboard, ranges', async ({
  page,
  host,
}) => {
  // Seeding waits for the sandbox's analyses: on a loaded machine that alone can take minutes.
  test.setTimeout(420_000);
  const seeded = await seedStudyWithResults(host, { codes: ['P-001'], sessions: 1 });
  const rid = await firstRecordingId(host, seeded.studyId);

  const media: { url: string; status: number; range: string | null }[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/download/media/'))
      media.push({ url: r.url(), status: r.status(), range: r.request().headers()['range'] ?? null });
  });
  // The import measured the recording in the background; its F0 track is stored with the measures.
  const got: { track: PitchTrackView | null } = { track: null };
  await expect
    .poll(
      async () => {
        const r = await host.rpc('acoustics.pitchTrack', { recordingId: rid });
        got.track = r.ok ? r.value : null;
        return got.track !== null;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe(true);
  const stored = got.track!;
  console.log(`pitch track stored: ${stored.f0.length} frames of ${stored.step * 1000} ms`);
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

  // The pitch track over the spectrogram, with its legend, its switch and its text alternative.
  const shown = await expectTrackDrawn(page, stored);
  console.log(
    `pitch track: ${shown.frames} voiced frames in ${shown.runs} runs over ${shown.width} px, worst ${shown.worstCents.toFixed(3)} cents`,
  );
  const summary = trackSummary(stored)!;
  await expect(page.getByTestId('pitch-track-text')).toHaveText(
    new RegExp(
      `^Pitch track: median ${Math.round(summary.medianHz)} Hz, range ${Math.round(summary.minHz)} Hz to ${Math.round(summary.maxHz)} Hz, voiced in ${Math.round(summary.voicedShare * 100)} % of the ${(stored.step * 1000).toFixed(1)} ms frames`,
    ),
  );
  await expect(page.getByRole('img', { name: /with the pitch track drawn over it/ })).toBeVisible();
  const toggle = page.getByRole('checkbox', { name: 'Show the pitch track' });
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId('pitch-track')).toHaveCount(0);
  await page.keyboard.press('Space');
  await expect(page.getByTestId('pitch-track')).toBeVisible();

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

  console.log('pitch track: drawn, switched; checking the page');
  await checkA11y(page, 'recording page with player');
  await shoot(page, 'recording-listen-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'recording-listen-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Zoomed into the waveform, the spectrogram and the track follow its scrolling.
  const wave = page.getByRole('group', { name: /^Waveform of the original file/ });
  await wave.focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await expect(page.getByRole('slider', { name: 'Zoom' })).toHaveValue('3');
  await wave.evaluate((el) => {
    el.scrollLeft = 400;
  });
  await expect
    .poll(() => page.getByTestId('pitch-track').evaluate((svg) => (svg as SVGElement).style.transform))
    .toBe('translateX(-400px)');
  const spectroScroll = await page
    .locator('.spectrogram > div')
    .first()
    .evaluate((d) => d.scrollLeft);
  expect(spectroScroll).toBe(400);
  await expectTrackDrawn(page, stored);
  // At 200 pixels per second, after scrolling at 100 and after scrolling at 200, the waveform, the
  // spectrogram, the pitch track and the ruler show the same seconds.
  await wave.focus();
  await page.keyboard.press('+');
  await expect(page.getByRole('slider', { name: 'Zoom' })).toHaveValue('4');
  const zoomed = await expectOneTimeAxis(page, duration, 'zoomed to 200 px/s');
  expect(zoomed.to - zoomed.from).toBeLessThan(duration / 2);
  await wave.evaluate((el) => {
    el.scrollLeft = 3000;
  });
  const scrolled = await expectOneTimeAxis(page, duration, 'scrolled at 200 px/s');
  expect(scrolled.from).toBeGreaterThan(zoomed.from + 5);
  await shoot(page, 'recording-listen-zoomed');
  await wave.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('-');
  await expect(page.getByRole('slider', { name: 'Zoom' })).toHaveValue('0');

  console.log('pitch track: followed the waveform zoom and scroll');
  // 200 % zoom (1280 x 800 at 200 %: 640 x 400 CSS pixels): the track is drawn again at the new width.
  await page.setViewportSize({ width: 640, height: 400 });
  await expect
    .poll(() => page.getByTestId('pitch-track').evaluate((svg) => Number(svg.getAttribute('data-width'))))
    .toBeLessThan(shown.width);
  await expectTrackDrawn(page, stored);
  await page.getByTestId('pitch-track').scrollIntoViewIfNeeded();
  await page.screenshot({
    path: join(SCREENSHOTS, 'zoom200-recording-pitch-light.png'),
    fullPage: false,
  });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SCREENSHOTS, 'zoom200-recording-pitch-dark.png'), fullPage: false });
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
  const rid = await firstRecordingId(host, study.id);

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
