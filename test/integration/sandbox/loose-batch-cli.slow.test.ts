/**
 * End to end through the command line against the sandbox in its misbehaving mode: a batch of
 * 50 recordings sent to a service that answers like a looser real one (free-string ratings, values out of
 * range, fractions, extra members and types, nulls, a clock six minutes behind, late completions,
 * unreadable account answers and unexpected roles) ends with every recording in an end state, the export
 * holds every value the service sent, and each participant has exactly one account.
 *
 * Polls that fail forever are rehearsed separately: until the engine counts failed polls toward the
 * timeout (another change), such a recording never ends, so that case is written as
 * the specification wants it and marked as expected to fail for now.
 */
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISBEHAVIOURS } from '../../../main/sandbox/misbehave';
import { EXIT } from '../../../main/cli/command';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { openStudyService } from '../../../main/services/study-service';
import { MEASURES } from '../../../shared/api/measures';
import { makeWav } from '../../fixtures/audio';
import { cliWorkspace, jsonLines } from '../../support/cli-workspace';
import { readCsv } from '../export/helpers';

const KEY = 'vs-loose-batch-key-0001';
const PARTICIPANTS = 10;
const SESSIONS = 5;
const END_STATES = ['completed', 'error', 'timed_out', 'unanswered'];

const ws = cliWorkspace('vs-loose-', { env: { VS_LOOSE_KEY: KEY } });
const { root, home } = ws;
const files = join(root, 'files');
let sandbox: Sandbox;
const uncertainCodes: string[] = [];

/** One command, its `--json` lines parsed. */
const run = async (
  args: string[],
): Promise<{ code: number; lines: Record<string, unknown>[]; stderr: string }> => {
  const r = await ws.run(args);
  return { code: r.code, lines: jsonLines(r.stdout), stderr: r.stderr };
};

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    config: {
      organisations: [
        {
          id: 'lab',
          name: 'Lab',
          apiKeys: [KEY],
          credits: {
            trial_remaining: 0,
            trial_granted: 0,
            included_remaining: 500,
            included_granted: 500,
            purchased_remaining: 0,
            tier: 'sandbox',
          },
        },
      ],
      scenario: {
        preset: 'loose',
        misbehave: {
          enabled: [...MISBEHAVIOURS],
          seed: 13,
          lateCompletionShare: 0.1,
        },
      },
    },
  });
  mkdirSync(files, { recursive: true });
  for (let p = 0; p < PARTICIPANTS; p++)
    for (let s = 0; s < SESSIONS; s++) {
      const file = join(files, `P-${p}_w${s}.wav`);
      writeFileSync(
        file,
        makeWav({ seconds: 40, speechSeconds: 34, sampleRateHz: 8_000, seed: 1000 + p * SESSIONS + s }),
      );
      // The recording time comes from the file's modification time here, and the sandbox picks the
      // recordings that misbehave from the audio and that time: fixed times, the same picks every run.
      const at = new Date(Date.UTC(2026, 2, 2 + s * 7, 9 + p, 0, 0));
      utimesSync(file, at, at);
    }
}, 120_000);
afterAll(async () => {
  await sandbox.close();
  ws.remove();
});

describe('a batch of 50 recordings against a loose service, through the command line', () => {
  it('sets up a profile and a study; the timeout is tuned short so late results time out in the test', async () => {
    const p = await run(
      [
        'profile',
        'add',
        '--name',
        'loose',
        '--url',
        sandbox.url,
        '--api',
        'v1.3',
        '--key-env',
        'VS_LOOSE_KEY',
      ].concat(['--sandbox', '--json']),
    );
    expect(p.code).toBe(0);
    expect((await run(['study', 'create', '--name', 'Loose', '--profile', 'loose', '--json'])).code).toBe(0);
    // The command line has no option for the timeout; the window's settings are the same store.
    const svc = openStudyService({ workspaceDir: home });
    await svc.saveSettings({
      poll: {
        firstPollAfterMs: 5_000,
        intervalMs: 5_000,
        jitterMs: 0,
        timeoutMs: 20_000,
        globalRatePerSecond: 50,
        globalBurst: 50,
      },
      queue: { uploadConcurrency: 4, uploadsPerMinute: 600 },
    });
    await svc.close();
  }, 60_000);

  it('imports: the account answer the service garbled is not retried blindly, so the import asks for a decision (exit 4)', async () => {
    const r = await run(
      ['import', '--study', 'Loose', files, '--pattern', '{participant}_{session}.wav', '--tz', 'UTC'].concat(
        ['--yes', '--wait', '--timeout', '240', '--json'],
      ),
    );
    expect(r.code, r.stderr).toBe(EXIT.decide);
    const svc = openStudyService({ workspaceDir: home });
    try {
      const study = (await svc.listStudies()).find((x) => x.name === 'Loose')!;
      const uncertain = (await svc.uncertainAccounts(study.id)).filter((a) => a.resolution === null);
      expect(uncertain.length).toBeGreaterThan(0);
      uncertainCodes.push(...uncertain.map((a) => a.participantCode));
    } finally {
      await svc.close();
    }
  }, 300_000);

  it('after the researcher decides (ask again), wait ends with every recording in an end state and says some got no result (exit 8)', async () => {
    // The service may garble the answer again: the researcher is told so and decides once more.
    for (const code of uncertainCodes) {
      let a = { code: -1, lines: [] as Record<string, unknown>[], stderr: '' };
      for (let attempt = 0; attempt < 6 && a.code !== 0; attempt++) {
        a = await run([
          'account',
          '--study',
          'Loose',
          '--participant',
          code,
          '--decision',
          'retry',
          '--json',
        ]);
        expect([EXIT.ok, EXIT.decide], `${a.stderr} ${JSON.stringify(a.lines)}`).toContain(a.code);
      }
      expect(a.code, `${a.stderr} ${JSON.stringify(a.lines)}`).toBe(EXIT.ok);
    }
    const r = await run(['wait', '--study', 'Loose', '--timeout', '240', '--json']);
    const batches = r.lines.filter((l) => l['kind'] === 'batch');
    const final = batches.at(-1) as {
      batch: { total: number; uploads: Record<string, number>; analysesByState: Record<string, number> };
    };
    expect(final, r.stderr).toBeDefined();
    expect(final.batch.total).toBe(PARTICIPANTS * SESSIONS);
    expect(final.batch.uploads).toEqual({ uploaded: PARTICIPANTS * SESSIONS });
    for (const state of Object.keys(final.batch.analysesByState)) expect(END_STATES).toContain(state);
    expect(final.batch.analysesByState['completed']).toBeGreaterThan(0);
    // Polls that keep failing and late completions leave analyses without a result in time: never exit 0,
    // never the --timeout code; a failed analysis (3) comes before "no result" (8).
    const noResult =
      (final.batch.analysesByState['timed_out'] ?? 0) + (final.batch.analysesByState['unanswered'] ?? 0);
    expect(noResult).toBeGreaterThan(0);
    expect(r.code, r.stderr).toBe(
      (final.batch.analysesByState['error'] ?? 0) > 0 ? EXIT.refused : EXIT.noResult,
    );
    expect(sandbox.listRecordings()).toHaveLength(PARTICIPANTS * SESSIONS);
    // The service did misbehave, in every way switched on.
    const applied = new Set(
      sandbox
        .requestLog()
        .flatMap((l) =>
          l.fault?.startsWith('misbehave:') ? l.fault.slice('misbehave:'.length).split(',') : [],
        ),
    );
    expect([...applied].sort()).toEqual([...MISBEHAVIOURS].sort());
    const status = await run(['status', '--study', 'Loose', '--json']);
    expect(status.lines[0]).toMatchObject({ kind: 'batch', batch: { state: 'finished' } });
  }, 300_000);

  it('each participant has exactly one account, and every recording was sent under it', async () => {
    const svc = openStudyService({ workspaceDir: home });
    try {
      const accounts = svc.db
        .prepare('SELECT code, account_id FROM participants WHERE account_id IS NOT NULL')
        .all() as { code: string; account_id: string }[];
      expect(accounts).toHaveLength(PARTICIPANTS);
      expect(new Set(accounts.map((a) => a.account_id)).size).toBe(PARTICIPANTS);
      const byParticipant = new Map(accounts.map((a) => [a.account_id, a.code]));
      for (const rec of sandbox.listRecordings()) expect(byParticipant.has(rec.accountId)).toBe(true);
    } finally {
      await svc.close();
    }
  }, 60_000);

  it('the export holds every value the service sent for a completed analysis', async () => {
    const out = join(root, 'export');
    mkdirSync(out);
    const r = await run([
      'export',
      '--study',
      'Loose',
      '--out',
      out,
      '--folder',
      'all',
      '--forms',
      'long',
      '--json',
    ]);
    expect(r.code, JSON.stringify(r.lines.at(-1))).toBe(0);
    expect(readdirSync(join(out, 'all'))).toContain('measures_long.csv');
    const long = readCsv(join(out, 'all', 'measures_long.csv'));
    // The export names recordings by the workstation's id; the service's id is kept beside it.
    const svc = openStudyService({ workspaceDir: home });
    const serviceId = new Map(
      (
        svc.db.prepare('SELECT id, recording_id FROM recordings').all() as {
          id: number;
          recording_id: string;
        }[]
      ).map((r) => [String(r.id), r.recording_id]),
    );
    await svc.close();
    const cell = new Map<string, string>();
    const stateOf = new Map<string, string>();
    for (const row of long.records) {
      const key = `${serviceId.get(row['recording']!)}|${row['measure']}`;
      cell.set(key, row['kind'] === 'insight' && row['category'] ? row['category'] : (row['value'] ?? ''));
      stateOf.set(key, row['analysis_state'] ?? '');
    }
    let compared = 0;
    let unanswered = 0;
    let notYetHere = 0;
    for (const rec of sandbox.listRecordings()) {
      const res = await fetch(`${sandbox.url}/v1.3/recordings/${rec.id}/analysis`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      // A recording whose polls the service keeps failing never delivered values: nothing to compare.
      if (!res.ok) {
        unanswered++;
        continue;
      }
      const answer = (await res.json()) as { analysis: Record<string, Record<string, unknown> | null> };
      for (const m of MEASURES) {
        const obj = answer.analysis[m.analysis];
        if (!obj || obj['status'] !== 'completed' || !m.path['v1.3']) continue;
        const sent = m.path['v1.3'].reduce<unknown>(
          (n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined),
          obj,
        );
        if (sent === undefined || sent === null) continue;
        const key = `${rec.id}|${m.key}`;
        // The service may finish an analysis after the workstation's (short, in this test) timeout: the
        // workstation then never received these values, and its row says so (timed out, re-checked
        // later, or unanswered), never a completed analysis with a value missing.
        if (stateOf.get(key) !== 'completed') {
          expect(['timed_out', 'unanswered'], key).toContain(stateOf.get(key));
          notYetHere++;
          continue;
        }
        // A rating that differs only in case is stored in the specification's spelling.
        const got = cell.get(key);
        if (typeof sent === 'number') expect(Number(got), key).toBe(sent);
        else expect(got?.toLowerCase(), key).toBe(String(sent).toLowerCase());
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect(notYetHere).toBeLessThan(compared / 10);
    // Some recordings' polls were failed on purpose; the rest answered.
    expect(unanswered).toBeGreaterThan(0);
    expect(unanswered).toBeLessThan(PARTICIPANTS * SESSIONS);
  }, 120_000);
});
