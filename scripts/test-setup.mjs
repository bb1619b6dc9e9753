#!/usr/bin/env node
// The first step of `npm test` (and of CI, .ci/run): installs what the tests need and is missing, the
// Debian packages of scripts/test-tools.mjs (as root, with apt-get) and the npm dependencies, or stops
// at once with the one command that installs them. Plain Node with no dependencies.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNodeModules, NO_DOWNLOADS } from './node-deps.mjs';
import { ensureTestTools } from './test-tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!ensureTestTools()) process.exit(1);
if (!installNodeModules(root, { ...process.env, ...NO_DOWNLOADS })) process.exit(1);
