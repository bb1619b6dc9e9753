/**
 * Browser mode's "download": an export is written into the workspace's exports folder (the same code
 * path as everywhere else), then the browser fetches it through the bridge (token-protected) as one
 * zip or file by file. The zip is streamed with fflate, so a large export never sits in memory whole.
 */
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import type http from 'node:http';
import { basename, join } from 'node:path';
import { Zip, ZipPassThrough } from 'fflate';

/** Export folder names as the exporter writes them: letters, digits, dot, dash and underscore. */
const SAFE = /^[A-Za-z0-9._-]{1,200}$/;

export const exportsDir = (workspaceDir: string) => join(workspaceDir, 'exports');

export const createExportDownloads = (workspaceDir: string) => {
  const root = exportsDir(workspaceDir);
  const folder = (name: string) => (SAFE.test(name) && !name.startsWith('.') ? join(root, name) : null);

  const sendFile = (res: http.ServerResponse, file: string) => {
    res.writeHead(200, {
      'Content-Type': file.endsWith('.json')
        ? 'application/json'
        : file.endsWith('.md')
          ? 'text/markdown; charset=utf-8'
          : 'text/csv; charset=utf-8',
      'Content-Length': statSync(file).size,
      'Content-Disposition': `attachment; filename="${basename(file)}"`,
    });
    createReadStream(file).pipe(res);
  };

  const sendZip = (res: http.ServerResponse, dir: string, name: string) => {
    res.writeHead(200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${name}.zip"`,
    });
    const zip = new Zip((e, chunk, final) => {
      if (e) {
        res.destroy(e);
        return;
      }
      // Backpressure is handled per file below; here the chunk is just written.
      res.write(Buffer.from(chunk));
      if (final) res.end();
    });
    const files = readdirSync(dir)
      .filter((f) => statSync(join(dir, f)).isFile())
      .sort();
    const next = (i: number) => {
      if (i >= files.length) {
        zip.end();
        return;
      }
      const entry = new ZipPassThrough(`${name}/${files[i]}`);
      zip.add(entry);
      const stream = createReadStream(join(dir, files[i]!));
      stream.on('data', (c) => {
        entry.push(c as Buffer);
        if (res.writableNeedDrain) {
          stream.pause();
          res.once('drain', () => stream.resume());
        }
      });
      stream.on('end', () => {
        entry.push(new Uint8Array(0), true);
        next(i + 1);
      });
      stream.on('error', (e) => res.destroy(e));
    };
    next(0);
  };

  /** `/download/exports/<folder>.zip` or `/download/exports/<folder>/<file>`. */
  const route = (path: string, _req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const m = /^\/download\/exports\/([^/]+?)(?:\.zip|\/([^/]+))$/.exec(path);
    if (!m) return false;
    const dir = folder(decodeURIComponent(m[1]!));
    if (!dir || !existsSync(dir) || !statSync(dir).isDirectory()) return false;
    if (m[2] === undefined) {
      sendZip(res, dir, basename(dir));
      return true;
    }
    const fileName = decodeURIComponent(m[2]);
    if (!SAFE.test(fileName)) return false;
    const file = join(dir, fileName);
    if (!existsSync(file) || !statSync(file).isFile()) return false;
    sendFile(res, file);
    return true;
  };
  return { route, root };
};
