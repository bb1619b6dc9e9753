/** A workstation's name (main/workspace/workstation-name.ts): chosen once per workspace, then kept. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { workstationFileOf, workstationName } from '../../../main/workspace/workstation-name';

const root = mkdtempSync(join(tmpdir(), 'vs-workstation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('is the host name and a random suffix, kept in the workspace and the same at every start', () => {
  const dir = mkdtempSync(join(root, 'a-'));
  const name = workstationName(dir);
  expect(name).toMatch(/^[A-Za-z0-9.-]+-[0-9a-f]{6}$/);
  expect(
    name.startsWith(
      hostname()
        .replace(/[^A-Za-z0-9.-]/g, '-')
        .slice(0, 10),
    ),
  ).toBe(true);
  expect(readFileSync(workstationFileOf(dir), 'utf8').trim()).toBe(name);
  expect(workstationName(dir)).toBe(name);
});

it('differs between two workspaces on the same computer', () => {
  expect(workstationName(mkdtempSync(join(root, 'b-')))).not.toBe(
    workstationName(mkdtempSync(join(root, 'c-'))),
  );
});
