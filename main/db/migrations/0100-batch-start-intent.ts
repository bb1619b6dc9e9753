/**
 * The start intent of a batch (no gap between import and batch): `batches.start_requested_at`
 * is written in the same transaction that imports the files when the researcher asked to import *and
 * start* ("Import and start sending", `voicescope import --yes`). A batch still `open` with this set was
 * interrupted between the import and its start (a crash, a kill); the next `voicescope wait` or `status`,
 * or the next start of the app, finds it and starts it. A batch imported "without starting" leaves it
 * NULL and stays open until the researcher starts it.
 */
import type { Migration } from '../migrate';

export const m0100: Migration = {
  version: 100,
  name: '0100-batch-start-intent',
  up(db) {
    db.exec(`ALTER TABLE batches ADD COLUMN start_requested_at TEXT;`);
  },
};
