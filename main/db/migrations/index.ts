/** Every migration, in order. Released migrations are never edited: add a new one. */
import type { Migration } from '../migrate';
import { m0010 } from './0010-study-schema';

export const MIGRATIONS: readonly Migration[] = [m0010];
