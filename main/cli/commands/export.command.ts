/** `voicescope export`: the app's indicator spreadsheets with their codebook (docs/export.md), from the command line. */
import { resolve } from 'node:path';
import { APP_VERSION } from '../../app-version';
import { EXIT, need, UsageError, type WorkspaceCommand } from '../command';
import { reportProblem, resolveStudy } from '../lookup';

const list = (v: string | undefined): string[] | undefined =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);

export const exportCommand: WorkspaceCommand = {
  name: 'export',
  help: `  export --study <name|id> --out <folder> [--folder <name>] [--forms long,wide,summary] [--preset standard|excel]
         [--extras spss,stata,xlsx]
         [--participant <code>]... [--session <label>]... [--from <date>] [--to <date>] [--analyses <a,b>]
         [--states <s,t>] [--link-file] [--tz <zone>] [--baseline-sessions <k>]
                                            indicator spreadsheets with a codebook (see docs/export.md)`,
  run: async ({ svc, out, values: v }) => {
    const refused = svc.refusalForRole('export');
    if (refused) return reportProblem(out, refused);
    const study = await resolveStudy(svc, v.study);
    const k = v['baseline-sessions'];
    if (k !== undefined && !/^\d+$/.test(k))
      throw new UsageError('--baseline-sessions takes a whole number of sessions (1 to 20).');
    const { runExport } = await import('../../export/run-export');
    const ac = new AbortController();
    const cancel = () => ac.abort();
    process.once('SIGINT', cancel);
    // The request is checked by the exporter itself (same rules as the app): a wrong form or zone comes back as invalid_request.
    const r = await runExport(
      svc,
      {
        studyId: study.id,
        timeZone: v.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        ...(v.forms !== undefined ? { forms: list(v.forms) } : {}),
        ...(v.extras !== undefined ? { extras: list(v.extras) } : {}),
        ...(v.preset !== undefined ? { preset: v.preset } : {}),
        ...(v.participant ? { participants: v.participant } : {}),
        ...(v.session ? { sessions: v.session } : {}),
        ...(v.from !== undefined ? { from: v.from } : {}),
        ...(v.to !== undefined ? { to: v.to } : {}),
        ...(v.analyses !== undefined ? { analyses: list(v.analyses) } : {}),
        ...(v.states !== undefined ? { states: list(v.states) } : {}),
        ...(k !== undefined ? { baselineSessions: Number(k) } : {}),
        includeLinkFile: v['link-file'] === true,
      },
      {
        outDir: resolve(need(v.out, 'out')),
        ...(v.folder ? { folderName: v.folder } : {}),
        appVersion: APP_VERSION,
        signal: ac.signal,
        onProgress: (p) =>
          out.progress(
            `Exporting: ${p.recordingsDone}/${p.recordingsTotal} recordings, ${(p.bytesWritten / 1e6).toFixed(1)} MB`,
            { progress: p },
          ),
      },
    );
    process.off('SIGINT', cancel);
    out.done();
    if (!r.ok) {
      out.problem(r.error.message, r.error.action, { code: r.error.code });
      return r.error.code === 'invalid_request' ? EXIT.usage : EXIT.notExported;
    }
    const e = r.value;
    const files = e.files
      .filter((f) => f.rows !== null)
      .map((f) => `${f.name} (${f.rows} rows)`)
      .join(', ');
    out.say(
      'exported',
      `Exported ${e.counts.recordings} recordings of ${e.counts.participants} participants to ${e.directory}: ${files}, with ${e.files
        .filter((f) => f.rows === null && f.name !== 'SHA256SUMS')
        .map((f) => f.name)
        .join(
          ', ',
        )} and SHA256SUMS.${e.anySimulated ? ` Note: ${e.counts.simulatedRecordings} recordings carry simulated values (column simulated = true).` : ''}`,
      { report: e },
    );
    return EXIT.ok;
  },
};
