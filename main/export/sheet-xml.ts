/**
 * The XML of an Office Open XML workbook (ECMA-376 Part 1, SpreadsheetML, and Part 2, the package's
 * content types and relationships), as the few pieces study.xlsx needs: worksheets with a frozen header
 * row, column widths and typed cells (numbers, booleans, date-times with a date format, inline text),
 * one cell style for date-times, and the workbook that lists the sheets. Rows and cells carry no
 * reference (`r`, optional in the schema): each follows the one before, so the cells a recording's
 * long-form rows share are encoded once and reused, and an empty cell is an empty `<c/>`.
 */

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** The cell style (index into cellXfs) of date-times. */
export const DATE_STYLE = 1;
const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** Characters XML 1.0 cannot hold, written as SpreadsheetML's `_xHHHH_` escape; a literal `_xHHHH_` gets its underscore escaped. */
const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)/g;
const hex4 = (c: string) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`;
const SPECIAL = /[&<>"\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_x/;

/** Text as element or attribute content; CR as a reference, so a reader does not turn it into LF. */
export const xmlText = (s: string): string => {
  if (!SPECIAL.test(s)) return s;
  return s
    .replace(NOT_XML, hex4)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');
};

/** Excel's serial day number of a UTC instant (days since 1899-12-30, the 1900 date system). */
export const excelSerial = (ms: number): number => ms / 86_400_000 + 25_569;

export interface SheetColumn {
  readonly width: number;
  readonly date: boolean;
}

/** A worksheet up to its first row: the header row frozen, the columns' widths. */
export const sheetStart = (columns: readonly SheetColumn[]): string =>
  `${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0">` +
  `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
  `<sheetFormatPr defaultRowHeight="15"/><cols>${columns
    .map(
      (c, i) =>
        `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"${c.date ? ` style="${DATE_STYLE}"` : ''}/>`,
    )
    .join('')}</cols><sheetData>`;

export const SHEET_END = '</sheetData></worksheet>';

export const EMPTY_CELL = '<c/>';
/** A printable ASCII character other than a space: the usual first and last of a cell's text, and never white space. */
const plainAscii = (code: number): boolean => code > 32 && code < 127;
/** White space at either end, as a regular expression's `\s` counts it; most texts are answered without the regular expression. */
const hasEdgeSpace = (s: string): boolean =>
  s.length > 0 && !(plainAscii(s.charCodeAt(0)) && plainAscii(s.charCodeAt(s.length - 1)))
    ? /^\s|\s$/.test(s)
    : false;
/** A text element; told to keep its white space only when it has some at either end (a reader would trim it). */
const t = (s: string): string =>
  hasEdgeSpace(s) ? `<t xml:space="preserve">${xmlText(s)}</t>` : `<t>${xmlText(s)}</t>`;
/** Text held in the cell itself. */
export const textCell = (s: string): string => `<c t="inlineStr"><is>${t(s)}</is></c>`;
/** Text held in the shared-strings part, by its index there. */
export const sharedTextCell = (index: number): string => `<c t="s"><v>${index}</v></c>`;
/** A finite number: JavaScript's number text is XML Schema's double. */
export const numberCell = (n: number): string => `<c><v>${n}</v></c>`;
export const booleanCell = (v: boolean): string => `<c t="b"><v>${v ? 1 : 0}</v></c>`;
export const dateCell = (ms: number): string => `<c s="${DATE_STYLE}"><v>${excelSerial(ms)}</v></c>`;
export const xmlRow = (cells: string): string => `<row>${cells}</row>`;

const STYLES =
  `${HEAD}<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="${DATE_FORMAT}"/></numFmts>` +
  `<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
  `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
  `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
  `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
  `<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
  `<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>` +
  `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

export const SHARED_STRINGS = 'xl/sharedStrings.xml';

/** The shared-strings part: each string's index is its place in the list. */
export const sharedStringsXml = (strings: Iterable<string>): string => {
  let xml = '';
  let n = 0;
  for (const s of strings) {
    xml += `<si>${t(s)}</si>`;
    n++;
  }
  return `${HEAD}<sst xmlns="${MAIN}" uniqueCount="${n}">${xml}</sst>`;
};

export const worksheetPart = (i: number): string => `xl/worksheets/sheet${i + 1}.xml`;

/** Every part of the package but the worksheets, by path, for a workbook of these sheet names in order. */
export const packageParts = (sheetNames: readonly string[], creator: string): [string, string][] => [
  [
    '[Content_Types].xml',
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      sheetNames
        .map(
          (_, i) =>
            `<Override PartName="/${worksheetPart(i)}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
      `<Override PartName="/${SHARED_STRINGS}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>` +
      `<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
      `</Types>`,
  ],
  [
    '_rels/.rels',
    `${HEAD}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>` +
      `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
      `</Relationships>`,
  ],
  [
    'docProps/core.xml',
    `${HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
      `xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${xmlText(creator)}</dc:creator></cp:coreProperties>`,
  ],
  [
    'xl/workbook.xml',
    `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets>` +
      sheetNames
        .map((n, i) => `<sheet name="${xmlText(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join('') +
      `</sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${HEAD}<Relationships xmlns="${PKG_REL}">` +
      sheetNames
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join('') +
      `<Relationship Id="rId${sheetNames.length + 1}" Type="${REL}/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId${sheetNames.length + 2}" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
      `</Relationships>`,
  ],
  ['xl/styles.xml', STYLES],
];
