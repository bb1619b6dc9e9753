/**
 * A TCP proxy between a workstation and its database server that a test can cut and restore, the
 * closest thing to a network cut: cut, every connection through it is closed at once (both ends see it
 * end) and new ones are closed as they arrive; restored, connections pass again. It only forwards
 * bytes, so TLS runs end to end through it.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface CutProxy {
  readonly port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export const startCutProxy = async (target: { host: string; port: number }): Promise<CutProxy> => {
  let cutOff = false;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (cutOff) {
      client.destroy();
      return;
    }
    const server = connect(target.port, target.host);
    const end = () => {
      for (const s of [client, server]) {
        s.destroy();
        open.delete(s);
      }
    };
    for (const s of [client, server]) {
      open.add(s);
      s.on('error', end).on('close', end);
    }
    client.pipe(server);
    server.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      cutOff = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() {
      cutOff = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
};
