// Runs Doyensec's Electronegativity over a folder with no network access: the tool fetches translations
// and Electron's release list with `got` at start; here `got` is replaced by a function that fails at
// once (the tool then falls back to its bundled English strings), and the one check that needs the
// release list (AvailableSecurityFixesGlobalCheck) is excluded: the Electron version is pinned by
// package.json and the packaging test instead. Prints the findings as JSON on stdout.
//   node test/support/electronegativity-offline.cjs <folder> <electron version>
'use strict';
const Module = require('node:module');
const path = require('node:path');

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'got') {
    const offline = () =>
      Promise.reject(new Error('offline: Electronegativity may not download anything in tests'));
    offline.default = offline;
    return offline;
  }
  return load.call(this, request, parent, isMain);
};

const [input, electronVersion] = process.argv.slice(2);
if (!input || !electronVersion) {
  console.error('usage: electronegativity-offline.cjs <folder> <electron version>');
  process.exit(2);
}
// The tool's i18n prints a line when the (blocked) translation download fails; keep stdout for JSON.
const log = console.log;
console.log = (...a) => console.error(...a);
const run = require('@doyensec/electronegativity');
run(
  {
    input: path.resolve(input),
    output: undefined,
    isSarif: false,
    customScan: [],
    excludeFromScan: ['availablesecurityfixesglobalcheck'],
    severitySet: undefined,
    confidenceSet: undefined,
    isRelative: true,
    isVerbose: true,
    electronUpgrade: undefined,
    electronVersionOverride: electronVersion,
    parserPlugins: [],
  },
  false,
).then(
  (result) => {
    const findings = result.issues.map((i) => ({
      id: i.id,
      file: i.file.split(path.sep).join('/'),
      line: i.location.line,
      column: i.location.column,
      severity: i.severity.name,
      confidence: i.confidence.name,
      manualReview: Boolean(i.manualReview),
      sample: String(i.sample ?? '').slice(0, 160),
      description: i.description,
    }));
    log(
      JSON.stringify({ checks: result.globalChecks + result.atomicChecks, errors: result.errors, findings }),
    );
  },
  (e) => {
    console.error(e && e.stack ? e.stack : e);
    process.exit(1);
  },
);
