/**
 * The main process's logger (main/log.ts): what it keeps out of every line (API keys, Bearer tokens,
 * URL secrets, audio, participant codes unless diagnostic mode is on), where it writes (a file only
 * this user can read, rotated) and what never reaches the file (the launch address).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  codeMatcher,
  createLogger,
  LOG_FILE_NAME,
  redact,
  routeConsole,
  type LogSources,
} from '../../../main/log';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-log-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const KEY = 'vs-live-9f8e7d6c5b4a';
const CODES = ['ZX-0917', 'Q77', 'Ünal-3'];

const sources = (diagnostic = false): LogSources => ({
  secrets: () => [KEY],
  participantCodes: () => CODES,
  diagnostic: () => diagnostic,
});

const capture = (o: { diagnostic?: boolean; dir?: string } = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const log = createLogger({
    ...(o.dir ? { dir: o.dir } : {}),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    now: () => Date.UTC(2026, 10, 22, 10),
  });
  log.attach(sources(o.diagnostic));
  return { log, out, err, all: () => [...out, ...err].join('\n') };
};

describe('redaction', () => {
  it('removes every known API key, anything after Bearer, and secrets in addresses', () => {
    const { log, all } = capture();
    log.error(`upload failed with key ${KEY}`, { headers: { Authorization: `Bearer ${KEY}` } });
    log.warn('request', 'Authorization: Bearer some-other-token-123; retrying');
    log.info('opened http://127.0.0.1:5000/?token=abc123def&x=1 and https://x.example/?api_key=zzz');
    const text = all();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('some-other-token-123');
    expect(text).not.toContain('abc123def');
    expect(text).not.toContain('zzz');
    expect(text).toContain('[api key]');
    expect(text).toContain('Bearer [redacted]');
    expect(text).toContain('token=[redacted]&x=1');
  });

  it('never writes audio: binary values become their size, long Base64 runs are cut out', () => {
    const { log, all } = capture();
    const audio = Buffer.alloc(48_000, 7);
    log.error('upload body', { audio, view: new Uint8Array(10) }, audio);
    log.error(`body {"audio":"${audio.toString('base64')}"}`);
    const text = all();
    expect(text).not.toContain(audio.toString('base64').slice(0, 200));
    expect(text).toContain('[48000 bytes of binary data omitted]');
    expect(text).toContain('[10 bytes of binary data omitted]');
    expect(text).toMatch(/\[64000 characters of encoded data omitted\]/);
    expect(text.length).toBeLessThan(2_000);
  });

  it('replaces participant codes (in paths, messages and fields) unless diagnostic mode is on', () => {
    const normal = capture();
    normal.log.error(
      'could not read /data/ZX-0917_2026-01-05.wav for Q77',
      { participantCode: 'Q77', participant_id: 4 },
      new Error('ENOENT: Ünal-3.wav'),
    );
    normal.log.info('HTTPQ77 and Q770 are not codes');
    const text = normal.all();
    for (const c of CODES)
      expect(text).not.toMatch(new RegExp(`(?<![\\p{L}\\p{N}])${c}(?![\\p{L}\\p{N}])`, 'u'));
    expect(text).toContain('/data/[participant]_2026-01-05.wav');
    expect(text).toContain('participant_id: 4');
    expect(text).toContain('HTTPQ77 and Q770 are not codes');

    const diag = capture({ diagnostic: true });
    diag.log.error('could not read /data/ZX-0917_2026-01-05.wav', { participantCode: 'Q77' });
    diag.log.info(`key ${KEY}`);
    expect(diag.all()).toContain('ZX-0917');
    expect(diag.all()).toContain("participantCode: 'Q77'");
    expect(diag.all()).not.toContain(KEY);
  });

  it('debug lines exist only in diagnostic mode', () => {
    const normal = capture();
    normal.log.debug('details');
    expect(normal.all()).toBe('');
    const diag = capture({ diagnostic: true });
    diag.log.debug('details');
    expect(diag.all()).toContain('DEBUG details');
  });

  it('codes of one character are left alone; the rest match whole, case-insensitively', () => {
    expect(codeMatcher(['A'])).toBeNull();
    expect(redact('p001 and P001x and xP001', { secrets: [], codes: codeMatcher(['P001']) })).toBe(
      '[participant] and P001x and xP001',
    );
  });

  it('keeps working with the last rules if a source fails (the database is closing)', () => {
    const out: string[] = [];
    const log = createLogger({ out: (l) => out.push(l), err: (l) => out.push(l) });
    let broken = false;
    log.attach({
      secrets: () => {
        if (broken) throw new Error('closed');
        return [KEY];
      },
      participantCodes: () => CODES,
      diagnostic: () => false,
    });
    log.info(`a ${KEY}`);
    broken = true;
    log.info(`b ${KEY} ZX-0917`);
    expect(out.join('\n')).not.toContain(KEY);
    expect(out.join('\n')).not.toContain('ZX-0917');
  });
});

describe('the log file', () => {
  it('is readable only by the user, gets every level but debug, and never the announced address', () => {
    const dir = join(tmp(), 'logs');
    const { log, out } = capture({ dir });
    log.announce('BRIDGE_READY http://127.0.0.1:5000/?token=launch-secret');
    log.info('started');
    log.error('failed', new Error('boom'));
    const file = join(dir, LOG_FILE_NAME);
    expect(log.file).toBe(file);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^2026-11-22T10:00:00.000Z INFO {2}started$/m);
    expect(text).toMatch(/ERROR failed Error: boom/);
    expect(text).not.toContain('launch-secret');
    expect(out).toContain('BRIDGE_READY http://127.0.0.1:5000/?token=launch-secret');
  });

  it('rotates above its size, keeping three older files', () => {
    const dir = join(tmp(), 'logs');
    const log = createLogger({ dir, console: false, maxBytes: 1_000 });
    for (let i = 0; i < 200; i++) log.info(`line ${i} ${'x'.repeat(40)}`);
    const file = join(dir, LOG_FILE_NAME);
    expect(statSync(file).size).toBeLessThan(1_200);
    for (const n of [1, 2, 3]) expect(existsSync(`${file}.${n}`), `${n}`).toBe(true);
    expect(existsSync(`${file}.4`)).toBe(false);
  });
});

describe('console routing', () => {
  it('sends console.* through the logger, so engine modules that print are redacted too', () => {
    const { log, all } = capture();
    const undo = routeConsole(log);
    try {
      console.error('queue runner: failed', { key: KEY });
      console.log(`recording of ZX-0917 done`);
    } finally {
      undo();
    }
    expect(all()).toContain('ERROR queue runner: failed');
    expect(all()).not.toContain(KEY);
    expect(all()).not.toContain('ZX-0917');
  });
});
