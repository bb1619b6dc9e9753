/**
 * The codebook and datapackage.json describe every column of every file exactly as written, carry
 * the hashes of the files, say when values are simulated, give the v1.2-to-v1.3 mapping and the
 * sourced reference values, and never a folder path.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { FileDefSchema } from '../../../shared/export';
import { REFERENCE_VALUES } from '../../../main/export/reference-values';
import { seedAwkwardStudy } from './awkward-study';
import { mustExport, openExportStore, readCsv, tempDir } from './helpers';

const tmp = tempDir();
const dir = join(tmp.dir, 'all');
let codebook: string;
interface Field {
  name: string;
  type: string;
  description: string;
  constraints?: { enum?: string[] };
}
interface Resource {
  name: string;
  path: string;
  hash: string;
  bytes: number;
  schema?: { fields: Field[]; primaryKey: string[]; missingValues: string[] };
}
let pkg: { resources: Resource[]; voicescope: Record<string, unknown>; created: string };

beforeAll(async () => {
  const store = await openExportStore(tmp.dir);
  await seedAwkwardStudy(store);
  await mustExport(store, { includeLinkFile: true }, { outDir: tmp.dir, folderName: 'all' });
  await store.close();
  codebook = readFileSync(join(dir, 'codebook.md'), 'utf8');
  pkg = JSON.parse(readFileSync(join(dir, 'datapackage.json'), 'utf8')) as typeof pkg;
});
afterAll(() => tmp.cleanup());

const csvFiles = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .sort();
const sha = (f: string) =>
  createHash('sha256')
    .update(readFileSync(join(dir, f)))
    .digest('hex');

/** The rows of the codebook's column table in the section of `file`. */
const codebookColumns = (file: string): string[] => {
  const start = codebook.indexOf(`(\`${file}\`)`);
  expect(start, `section for ${file}`).toBeGreaterThan(0);
  const section = codebook.slice(start).split('\n## ')[0]!;
  return [...section.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]!);
};

describe('codebook coverage', () => {
  it('describes every column of every CSV, in order, in codebook.md', () => {
    // long, wide, summary, visits, completeness, recordings, data quality, answers as received, participant accounts
    expect(csvFiles()).toHaveLength(9);
    for (const f of csvFiles()) expect(codebookColumns(f), f).toEqual(readCsv(join(dir, f)).header);
  });

  it('describes every column of every CSV, in order, in datapackage.json, with a non-empty meaning', () => {
    for (const f of csvFiles()) {
      const res = pkg.resources.find((r) => r.path === f)!;
      expect(res, f).toBeDefined();
      expect(
        res.schema!.fields.map((x) => x.name),
        f,
      ).toEqual(readCsv(join(dir, f)).header);
      for (const field of res.schema!.fields)
        expect(field.description.length, `${f}.${field.name}`).toBeGreaterThan(10);
      expect(res.schema!.missingValues).toEqual(['']);
      for (const k of res.schema!.primaryKey) expect(res.schema!.fields.map((x) => x.name)).toContain(k);
    }
  });

  it('holds valid values only: every enum-constrained cell is one of the allowed values', () => {
    for (const f of csvFiles()) {
      const res = pkg.resources.find((r) => r.path === f)!;
      const { records } = readCsv(join(dir, f));
      for (const field of res.schema!.fields) {
        const allowed = field.constraints?.enum;
        if (!allowed) continue;
        for (const r of records)
          if (r[field.name] !== '') expect(allowed, `${f}.${field.name}`).toContain(r[field.name]);
      }
    }
  });

  it('gives the SHA-256 and size of every file, and SHA256SUMS covers them all', () => {
    for (const f of csvFiles()) {
      expect(codebook).toContain(sha(f));
      const res = pkg.resources.find((r) => r.path === f)!;
      expect(res.hash).toBe(`sha256:${sha(f)}`);
      expect(res.bytes).toBe(readFileSync(join(dir, f)).length);
    }
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('  ') as [string, string]);
    expect(sums.map(([, n]) => n).sort()).toEqual(
      readdirSync(dir)
        .filter((f) => f !== 'SHA256SUMS')
        .sort(),
    );
    for (const [h, n] of sums) expect(sha(n), n).toBe(h);
  });

  it('says the values are simulated, in the codebook and in every file that holds them', () => {
    expect(codebook).toMatch(/\*\*Simulated values\.\*\* 39 of the 51 recordings/);
    expect(pkg.voicescope['anySimulated']).toBe(true);
    for (const f of ['measures_long.csv', 'measures_wide.csv', 'participant_summary.csv', 'recordings.csv']) {
      const { records } = readCsv(join(dir, f));
      expect(
        records.some((r) => r['simulated'] === 'true'),
        f,
      ).toBe(true);
    }
  });

  it('explains every measure with its wire fields in both versions and its sourced reference values', () => {
    for (const m of MEASURES) {
      expect(codebook).toContain(`### \`${m.key}\``);
      if (m.path['v1.2']) expect(codebook).toContain(`analysis.${m.analysis}.${m.path['v1.2'].join('.')}`);
      for (const r of REFERENCE_VALUES[m.key] ?? []) expect(codebook).toContain(r.source);
    }
    expect(codebook).toContain('## From v1.2 to v1.3');
    expect(codebook).toContain('Murton, Hillman & Mehta 2020');
    expect(codebook).not.toMatch(/\(R\)/);
  });

  it('records the settings and the application version, and no folder path', () => {
    expect(codebook).toContain('Voicescope 9.9.9-test');
    expect(codebook).toContain('Europe/Berlin');
    expect(pkg.created).toBe('2024-06-01T12:00:00.000Z');
    expect(pkg.voicescope['request']).toMatchObject({
      studyId: 1,
      includeLinkFile: true,
      timeZone: 'Europe/Berlin',
    });
    for (const f of ['codebook.md', 'datapackage.json'])
      expect(readFileSync(join(dir, f), 'utf8')).not.toContain(tmp.dir);
  });

  it("the tables' descriptions are plain data the IPC contract can carry", async () => {
    const { exportFiles, tableDefs } = await import('../../../main/export/schema');
    const defs = tableDefs(
      exportFiles({ forms: ['long', 'wide', 'summary'], includeLinkFile: true, timeZone: 'UTC' }),
    );
    for (const d of defs) expect(FileDefSchema.parse(JSON.parse(JSON.stringify(d)))).toEqual(d);
  });
});
