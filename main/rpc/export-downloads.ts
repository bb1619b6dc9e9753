/**
 * Browser mode's "download": an export is written into the workspace's exports folder (the same code
 * path as everywhere else), then the browser fetches it through the bridge as one zip or file by file,
 * with a one-time ticket (below) rather than the launch token in the address. The zip is streamed with
 * fflate, so a large export never sits in memory whole. A name that cannot be decoded is a 400, a file
 * that vanishes mid-way ends that one response; neither reaches the process.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import type http from 'node:http';
import { basename, join } from 'node:path';
import { Zip, ZipPassThrough } from 'fflate';
import { exportsDirOf } from '../workspace/workspace';

/** Export folder names as the exporter writes them: letters, digits, dot, dash and underscore. */
const SAFE = /^[A-Za-z0-9._-]{1,200}$/;

/** How long a download ticket stays valid. */
export const DOWNLOAD_TICKET_TTL_MS = 60_000;
const MAX_OPEN_TICKETS = 1000;

/** How long a session ticket (audio) stays valid after its last use. */
export const SESSION_TICKET_IDLE_MS = 30 * 60_000;

export interface DownloadTickets {
  /**
   * A ticket for exactly this path (`/download/...`). One-time by default: valid once and for
   * DOWNLOAD_TICKET_TTL_MS. A session ticket (`session: true`, for audio, which a media element reads
   * in many range requests) opens the same path any number of times until SESSION_TICKET_IDLE_MS pass
   * without a use.
   */
  issue(path: string, o?: { session?: boolean }): string;
  /** True when it was issued for this path and has not expired; a one-time ticket is used up. */
  redeem(ticket: string, path: string): boolean;
}

/**
 * One-time download tickets: 32 random bytes, bound to one path, good for one request within a minute.
 * A ticket in the browser's history is worthless afterwards, unlike the launch token.
 */
export const createDownloadTickets = (
  o: { ttlMs?: number; sessionIdleMs?: number; now?: () => number } = {},
): DownloadTickets => {
  const ttl = o.ttlMs ?? DOWNLOAD_TICKET_TTL_MS;
  const idle = o.sessionIdleMs ?? SESSION_TICKET_IDLE_MS;
  const now = o.now ?? Date.now;
  const open = new Map<string, { path: string; until: number; session: boolean }>();
  const sweep = () => {
    const t = now();
    for (const [k, v] of open) if (v.until <= t) open.delete(k);
  };
  return {
    issue(path, opts = {}) {
      sweep();
      // Never unbounded: the oldest tickets go first.
      while (open.size >= MAX_OPEN_TICKETS) open.delete(open.keys().next().value!);
      const ticket = randomBytes(32).toString('base64url');
      const session = opts.session === true;
      open.set(ticket, { path, until: now() + (session ? idle : ttl), session });
      return ticket;
    },
    redeem(ticket, path) {
      sweep();
      const found = [...open.keys()].find((k) => {
        const a = Buffer.from(k);
        const b = Buffer.from(ticket);
        return a.length === b.length && timingSafeEqual(a, b);
      });
      if (found === undefined) return false;
      const entry = open.get(found)!;
      if (!entry.session) {
        open.delete(found);
        return entry.path === path;
      }
      if (entry.path !== path) return false;
      // A session ticket stays open while it is used: its idle time starts again.
      open.delete(found);
      open.set(found, { ...entry, until: now() + idle });
      return true;
    },
  };
};

const decoded = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
/** CSVs, the codebook and datapackage.json by their kind; the workbook as Excel's; scripts and SHA256SUMS as plain text. */
const contentType = (file: string): string =>
  CONTENT_TYPES[file.slice(file.lastIndexOf('.'))] ?? 'text/plain; charset=utf-8';

export const createExportDownloads = (workspaceDir: string) => {
  const root = exportsDirOf(workspaceDir);
  const folder = (name: string) => (SAFE.test(name) && !name.startsWith('.') ? join(root, name) : null);

  const sendFile = (res: http.ServerResponse, file: string) => {
    res.writeHead(200, {
      'Content-Type': contentType(file),
      'Content-Length': statSync(file).size,
      'Content-Disposition': `attachment; filename="${basename(file)}"`,
    });
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };

  const sendZip = (res: http.ServerResponse, dir: string, name: string) => {
    res.writeHead(200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${name}.zip"`,
    });
    const zip = new Zip((e, chunk, final) => {
      if (e) {
        res.destroy();
        return;
      }
      // Backpressure is handled per file below; here the chunk is just written.
      res.write(Buffer.from(chunk));
      if (final) res.end();
    });
    const files = readdirSync(dir)
      .filter((f) => statSync(join(dir, f), { throwIfNoEntry: false })?.isFile() === true)
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
      stream.on('error', () => res.destroy());
    };
    next(0);
  };

  /** `/download/exports/<folder>.zip` or `/download/exports/<folder>/<file>`. */
  const route = (path: string, _req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const m = /^\/download\/exports\/([^/]+?)(?:\.zip|\/([^/]+))$/.exec(path);
    if (!m) return false;
    const folderName = decoded(m[1]!);
    const fileName = m[2] === undefined ? undefined : decoded(m[2]);
    if (folderName === null || fileName === null) {
      res.writeHead(400).end('Bad request');
      return true;
    }
    try {
      const dir = folder(folderName);
      if (!dir || !existsSync(dir) || !statSync(dir).isDirectory()) return false;
      if (fileName === undefined) {
        sendZip(res, dir, basename(dir));
        return true;
      }
      if (!SAFE.test(fileName)) return false;
      const file = join(dir, fileName);
      if (!existsSync(file) || !statSync(file).isFile()) return false;
      sendFile(res, file);
      return true;
    } catch {
      // Removed between the check and the read: this response ends, nothing else does.
      if (!res.headersSent) res.writeHead(404).end('Not found');
      else res.destroy();
      return true;
    }
  };
  return { route, root };
};
