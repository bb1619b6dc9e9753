/**
 * What the import journeys share (import.e2e.ts, import-faults.slow.e2e.ts): a folder of generated
 * recordings made once per file, a sandbox study with the engine tuned for tests, and a batch committed
 * through the contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { makeSmallStudyFolder, type SmallStudyFolder } from '../../support/small-study-folder';
import { ok, test, type Host } from './fixtures';
import { QUICK_ENGINE_SETTINGS } from './study-with-results';

/** The small study folder, made before the file's tests and removed after them. */
export const useSmallStudyFolder = (): { readonly current: SmallStudyFolder } => {
  let root = '';
  const box = {} as { current: SmallStudyFolder };
  test.beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'vs-e2e-import-'));
    box.current = makeSmallStudyFolder(root);
  });
  test.afterAll(() => rmSync(root, { recursive: true, force: true }));
  return box;
};

/** A sandbox study with the engine tuned for tests (polls every 5 s, uploads unthrottled). */
export const setUp = async (host: Host, name: string) => {
  await ok(host.rpc('settings.save', QUICK_ENGINE_SETTINGS));
  const profile = await ok(host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }));
  const study = await ok(host.rpc('studies.create', { name, profileId: profile.id }));
  return { studyId: study.id, profileId: profile.id };
};

/** A batch of the given files committed with a file-name pattern, accounts created, not started. */
export const committedBatch = async (
  host: Host,
  folder: SmallStudyFolder,
  studyId: number,
  files: readonly string[],
  label: string,
) => {
  const plan = await ok(
    host.rpc('imports.preview', {
      studyId,
      paths: files.map((f) => join(folder.dir, f)),
      filenamePattern: folder.pattern,
      timeZone: 'Europe/Berlin',
      analyses: ['wellbeing', 'parkinsons'],
      isolateOldestSpeaker: false,
      convert: false,
    }),
  );
  const commit = await ok(host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label }));
  await ok(host.rpc('participants.createAccounts', { studyId }));
  return commit.batchId;
};

export const batchStatus = (page: Page) => page.locator('.batch-status');
