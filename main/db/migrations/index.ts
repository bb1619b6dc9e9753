/**
 * SQLite's migrations, in order: its own up to 180, then every migration written once for both engines
 * (./store/). Released migrations are never edited: add a new one, after 180 in ./store/.
 */
import { onSqlite, type Migration } from '../migrate';
import { m0010 } from './0010-study-schema';
import { m0020 } from './0020-import-and-queue';
import { m0030 } from './0030-workstation-views';
import { m0040 } from './0040-participant-stats';
import { m0050 } from './0050-recordings-table';
import { m0060 } from './0060-audit-log';
import { m0070 } from './0070-audit-chain';
import { m0080 } from './0080-data-quality';
import { m0090 } from './0090-end-states-and-account-intents';
import { m0095 } from './0095-confirm-odd-answers';
import { m0100 } from './0100-batch-start-intent';
import { m0110 } from './0110-study-design';
import { m0120 } from './0120-curation';
import { m0130 } from './0130-change-statistics';
import { m0140 } from './0140-participant-attributes';
import { m0150 } from './0150-local-measures';
import { m0160 } from './0160-local-pitch-tracks';
import { m0180 } from './0180-participant-curation';
import { STORE_MIGRATIONS } from './store';

export const MIGRATIONS: readonly Migration[] = [
  m0010,
  m0020,
  m0030,
  m0040,
  m0050,
  m0060,
  m0070,
  m0080,
  m0090,
  m0095,
  m0100,
  m0110,
  m0120,
  m0130,
  m0140,
  m0150,
  m0160,
  m0180,
  ...STORE_MIGRATIONS.map(onSqlite),
];
