/** Every migration, in order. Released migrations are never edited: add a new one. */
import type { Migration } from '../migrate';
import { m0010 } from './0010-study-schema';
import { m0020 } from './0020-import-and-queue';
import { m0030 } from './0030-workstation-views';

export const MIGRATIONS: readonly Migration[] = [m0010, m0020, m0030];
