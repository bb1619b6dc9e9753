/**
 * Starting PGlite runs PostgreSQL's initdb in WebAssembly: about 5 s of CPU, and several times that in
 * wall time on a loaded machine. A file starts one, in `beforeAll`, with this much time.
 */
export const PGLITE_START_TIMEOUT = 120_000;
