/**
 * datapackage.json: the export as a Frictionless Data Package (specs.frictionlessdata.io), each CSV a
 * Tabular Data Resource with its Table Schema (fields with type, format, constraints, missing values,
 * primary and foreign keys), bytes and SHA-256. Voicescope's own facts (settings, measures, wire
 * paths, reference values) sit under the `voicescope` property, which the specification allows.
 */
import type { ColumnDef, FileDef } from '../../shared/export';
import { RECORD_DELIMITER } from './cells';
import { describeMeasures, requestJson, type ExportDescription } from './describe';

const field = (c: ColumnDef): Record<string, unknown> => {
  const constraints: Record<string, unknown> = {};
  if (c.required) constraints['required'] = true;
  if (c.enum) constraints['enum'] = c.enum;
  if (c.range) {
    constraints['minimum'] = c.range[0];
    constraints['maximum'] = c.range[1];
  }
  return {
    name: c.name,
    title: c.title,
    description: c.description,
    type: c.type,
    format: c.timeFormat === 'local' ? '%Y-%m-%d %H:%M:%S' : 'default',
    ...(c.type === 'boolean' ? { trueValues: ['true'], falseValues: ['false'] } : {}),
    ...(c.unit ? { unit: c.unit } : {}),
    ...(c.measure ? { 'voicescope:measure': c.measure } : {}),
    ...(c.neutralised ? { 'voicescope:formulaNeutralised': true } : {}),
    ...(c.timeFormat === 'local' ? { 'voicescope:timeZone': 'see voicescope.request.timeZone' } : {}),
    ...(Object.keys(constraints).length ? { constraints } : {}),
  };
};

const resourceName = (file: string): string => file.replace(/\.[^.]+$/, '');

const tableResource = (t: FileDef, d: ExportDescription): Record<string, unknown> => {
  const w = d.written.find((f) => f.name === t.name);
  return {
    name: resourceName(t.name),
    path: t.name,
    profile: 'tabular-data-resource',
    title: t.title,
    description: `One row is ${t.rowIs}. ${t.description}`,
    format: 'csv',
    mediatype: 'text/csv',
    encoding: 'utf-8',
    ...(w ? { bytes: w.bytes, hash: `sha256:${w.sha256}`, 'voicescope:rows': w.rows } : {}),
    dialect: {
      delimiter: ',',
      lineTerminator: RECORD_DELIMITER,
      quoteChar: '"',
      doubleQuote: true,
      header: true,
      skipInitialSpace: false,
    },
    schema: {
      fields: t.columns.map(field),
      missingValues: [''],
      primaryKey: t.primaryKey,
      ...(t.foreignKeys.length
        ? {
            foreignKeys: t.foreignKeys.map((k) => ({
              fields: k.fields,
              reference: { resource: k.resource, fields: k.referenceFields },
            })),
          }
        : {}),
    },
  };
};

const LOADER: Record<string, { name: string; title: string }> = {
  '.R': { name: 'loader-r', title: 'R loader (base R)' },
  '.py': { name: 'loader-python', title: 'Python loader (pandas)' },
  '.sps': { name: 'loader-spss', title: 'SPSS syntax (SPSS, GNU PSPP)' },
  '.do': { name: 'loader-stata', title: 'Stata do-file' },
};

export const dataPackageJson = (
  d: ExportDescription,
  codebook: { bytes: number; sha256: string },
): string => {
  const loaders = d.written
    .filter((f) => f.role === 'loader')
    .map((f) => ({
      ...LOADER[f.name.slice(f.name.lastIndexOf('.'))]!,
      path: f.name,
      mediatype: 'text/plain',
      encoding: 'utf-8',
      bytes: f.bytes,
      hash: `sha256:${f.sha256}`,
    }));
  const pkg = {
    profile: 'data-package',
    name: `voicescope-study-${d.studyId}`,
    title: `Voicescope export of study ${JSON.stringify(d.studyName)}`,
    created: d.exportedAt,
    resources: [
      ...d.tables.map((t) => tableResource(t, d)),
      {
        name: 'codebook',
        path: 'codebook.md',
        title: 'Codebook',
        mediatype: 'text/markdown',
        encoding: 'utf-8',
        bytes: codebook.bytes,
        hash: `sha256:${codebook.sha256}`,
      },
      ...loaders,
      ...d.written
        .filter((f) => f.role === 'workbook')
        .map((f) => ({
          name: 'workbook',
          path: f.name,
          title: 'Excel workbook (a sheet per table, a codebook sheet)',
          mediatype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          bytes: f.bytes,
          hash: `sha256:${f.sha256}`,
        })),
    ],
    voicescope: {
      appVersion: d.appVersion,
      dbSchemaVersion: d.dbSchemaVersion,
      exportedAt: d.exportedAt,
      studyId: d.studyId,
      studyName: d.studyName,
      request: requestJson(d.request),
      bom: d.request.preset === 'excel',
      recordings: d.recordings,
      participants: d.participants,
      simulatedRecordings: d.simulatedRecordings,
      anySimulated: d.simulatedRecordings > 0,
      apiVersions: d.apiVersions,
      measures: describeMeasures(d.request).map((m) => ({
        key: m.def.key,
        analysis: m.def.analysis,
        field: m.def.field,
        label: m.def.label,
        kind: m.def.kind,
        valueType: m.def.valueType,
        unit: m.def.unit,
        allowed: m.def.allowed ?? null,
        range: m.def.range ?? null,
        meaning: m.def.meaning,
        wire: { 'v1.3': m.v13, 'v1.2': m.v12 },
        references: m.references,
      })),
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
};
