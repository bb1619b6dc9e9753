/**
 * What the log keeps out is read by each line synchronously, from facts the services hold in memory
 * (main/privacy/log-facts.ts): they are loaded when the workspace opens and follow every change the
 * window makes, from the next line on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppHost, type AppHost } from '../../../main/app-host';
import { createLogger } from '../../../main/log';

const homes: string[] = [];
const hosts: AppHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
});

const open = async (home: string) => {
  const lines: string[] = [];
  const logger = createLogger({ out: (l) => lines.push(l), err: (l) => lines.push(l) });
  const host = await openAppHost({
    workspaceDir: home,
    mode: 'browser',
    keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'test' },
    log: { error: () => {} },
    logger,
  });
  hosts.push(host);
  const call = async (method: string, input: unknown) => {
    const r = await host.router.handle(method, input, { via: 'direct' });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  return { host, logger, lines, call };
};

const newHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'vs-logfacts-'));
  homes.push(home);
  return home;
};

describe("the log's facts", () => {
  it('follow diagnostic mode from the next line, and are loaded again at the next start', async () => {
    const home = newHome();
    const a = await open(home);
    a.logger.info('looked at', { participant_code: 'ZX-0917' });
    await a.call('privacy.setDiagnostic', { on: true });
    a.logger.info('looked again at', { participant_code: 'ZX-0917' });
    expect(a.lines.filter((l) => l.includes('looked')).map((l) => l.includes('ZX-0917'))).toEqual([
      false,
      true,
    ]);
    await a.host.close();
    hosts.splice(0);

    const b = await open(home);
    b.logger.info('after the restart', { participant_code: 'ZX-0917' });
    await b.call('privacy.setDiagnostic', { on: false });
    b.logger.info('switched off', { participant_code: 'ZX-0917' });
    expect(b.lines.filter((l) => /restart|switched/.test(l)).map((l) => l.includes('ZX-0917'))).toEqual([
      true,
      false,
    ]);
  });
});
