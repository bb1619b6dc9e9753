/**
 * A really full disk and a really read-only drive, not simulated inside SQLite: each case runs in a
 * child process in its own mount namespace (`unshare -m`), where a 2 MiB tmpfs is filled to the last
 * byte, or the workspace folder is bind-mounted read-only. Running as root, file permissions would not
 * stop a write, so the kernel's own EROFS and ENOSPC are used. The mounts vanish with the child. Where
 * mount namespaces are not allowed (an unprivileged CI container), the tests are skipped and say so.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';

const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx/esm')).href;
const PROBE = join(import.meta.dirname, '../../support/storage-probe.ts');
const root = mkdtempSync(join(tmpdir(), 'vs-realfs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs a shell script in a private mount namespace; its positional parameters follow. */
const inNamespace = (script: string, ...args: string[]) =>
  spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `set -e; ${script}`, 'sh', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });

const probe = mkdtempSync(join(root, 'probe-'));
const check = inNamespace('mount -t tmpfs -o size=64k tmpfs "$1"', probe);
const mountable = check.status === 0;
if (!mountable)
  console.log(
    `real disk-full and read-only tests skipped: mount namespaces are not available here (${(check.stderr || check.error?.message || '').trim()})`,
  );

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe.skipIf(!mountable)('real file-system failures (own mount namespace)', () => {
  it('a disk filled to the last byte (ENOSPC): SQLite refuses with SQLITE_FULL, told as DISK_FULL; nothing half-stored, and it carries on once space is freed', () => {
    const dir = mkdtempSync(join(root, 'full-'));
    const run = inNamespace(
      'mount -t tmpfs -o size=2m tmpfs "$1"; exec "$2" --import "$3" "$4" full "$1"',
      dir,
      process.execPath,
      TSX,
      PROBE,
    );
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    console.log(
      `disk full after ${out.stored} stored results (${out.fillerBytes} bytes of other files): ${out.sqliteCode}`,
    );
    expect(out.stored).toBeGreaterThan(0);
    expect(out.sqliteCode).toMatch(/^SQLITE_FULL/);
    expect(out.problem.code).toBe('DISK_FULL');
    expect(out.problem.message).toMatch(/disk that holds the study database is full/);
    expect(out.problem.action).toContain(dir);
    if (out.failedState) expect(out.failedState).toEqual({ values: 0, state: 'processing' });
    expect(out.valuesAtFailure).toBe(out.stored * 6); // every result stored before the disk filled is whole
    expect(out.valuesAfter).toBe(out.valuesAtFailure + (out.retried ? 6 : 0));
    expect(out.integrity).toBe('ok');
  });

  it('a study database on a read-only drive (EROFS): opening it says the drive is read-only, and the file is not changed', () => {
    const dir = mkdtempSync(join(root, 'src-'));
    const roDir = join(root, `ro-${Date.now()}`);
    mkdirSync(roDir);
    const path = join(dir, 'voicescope.sqlite');
    const { db } = openStudyDb(path);
    db.prepare(
      `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES ('p', 'http://127.0.0.1:1', 'v1.3', 'x')`,
    ).run();
    db.close();
    const before = sha(path);
    const run = inNamespace(
      'mount --bind "$1" "$2"; mount -o remount,bind,ro "$2"; exec "$3" --import "$4" "$5" open "$2/voicescope.sqlite"',
      dir,
      roDir,
      process.execPath,
      TSX,
      PROBE,
    );
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(out.opened).toBe(false);
    expect(out.problem.code).toBe('DB_READONLY');
    expect(out.problem.message).toMatch(/read-only drive/);
    expect(out.problem.action).toMatch(/Move the workspace to a writable folder.*The file was not changed/);
    expect(sha(path)).toBe(before);
  });
});
