/**
 * The sections of `npm run bench`, in the order they run. Each one's key is its file's name
 * (test/bench/<key>.bench.ts): `npm run bench -- <key>` runs it alone.
 */
export const BENCH_SECTIONS = [
  { key: 'upload-overhead', title: 'Upload overhead' },
  { key: 'sandbox', title: 'Sandbox latency and client throughput' },
  { key: 'db', title: 'Study database' },
  { key: 'import', title: 'Import validation and hashing (1,000 WAV files)' },
  { key: 'speech', title: 'Speech estimate in one thread (Silero)' },
  { key: 'formats', title: 'Decoding and conversion of FLAC, MP3, Opus, Vorbis and AAC, beside ffmpeg' },
  { key: 'acoustics', title: 'Local acoustic measures against Praat on the same files (acoustics)' },
  { key: 'scheduler', title: 'Scheduler with 10,000 pending recordings' },
  { key: 'participants', title: 'Participants table query (10,000 participants, 100,000 recordings)' },
  { key: 'recordings', title: 'Recordings table query (100,000 recordings)' },
  {
    key: 'ui',
    title:
      'The window in browser mode: first screen (this build beside the unsplit one), charts of a 200-session participant, IPC, large tables',
  },
  { key: 'export', title: 'Export of 100,000 recordings (3.7 million values)' },
  {
    key: 'store',
    title:
      'The study store: timeline, due polls and import commit, today beside the store and Kysely, on SQLite and PostgreSQL',
  },
  { key: 'export-extras', title: 'Export of 100,000 recordings with the files for SPSS, Stata and Excel' },
  { key: 'move-study', title: 'Moving a study of 5,000 recordings into PostgreSQL 15 and back' },
  {
    key: 'team',
    title: 'A team study on PostgreSQL 15: three workstations of 700 recordings beside one of 2,100',
  },
] as const;

export type BenchKey = (typeof BENCH_SECTIONS)[number]['key'];

/** The sections the arguments name: by key when any argument is one, else every section with a word of its title. */
export const selectedSections = (args: readonly string[]): (typeof BENCH_SECTIONS)[number][] => {
  if (args.length === 0) return [...BENCH_SECTIONS];
  const byKey = BENCH_SECTIONS.filter((s) => args.includes(s.key));
  if (byKey.length > 0) return byKey;
  return BENCH_SECTIONS.filter((s) => args.some((a) => s.title.toLowerCase().includes(a.toLowerCase())));
};
