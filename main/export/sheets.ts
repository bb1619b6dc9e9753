/**
 * The workbook's sheets as the export's thread sees them: each CSV's bytes, as they are written, go to
 * the sheets' writer (sheet-work.ts), which runs in a worker thread of its own (sheet-worker.ts) so
 * that building the sheets' XML takes the processor's other core; where no worker can start, it runs
 * in this thread, the same code. The bytes are copied (the CSV's buffers are reused) and counted until
 * the writer says it took them: past a bound, `blocked` turns true and the export waits (`ready`), so
 * memory stays bounded however far the export is ahead of the sheets.
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerBeside } from '../worker-thread';
import type { DeflatedPart, SheetSpec } from './sheet-writer';
import { SheetWork, type FromSheets, type ToSheets } from './sheet-work';

/** Bytes of CSV sent and not yet written into the sheets before the export waits. */
const IN_FLIGHT_BYTES = 4 * 1024 * 1024;

type Post = (m: ToSheets, transfer?: ArrayBuffer[]) => void;

/** The writer in a worker thread; null when none can start. */
const inWorker = (receive: (a: FromSheets) => void, fail: (e: Error) => void) => {
  const worker: Worker | null = startWorkerBeside(import.meta.url, 'sheet-worker', {
    maxYoungGenerationSizeMb: 4,
  });
  if (worker === null) return null;
  worker.on('message', receive);
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The workbook's worker stopped (${code}).`)));
  const post: Post = (m, transfer) => worker.postMessage(m, transfer ?? []);
  return { post, stop: () => worker.terminate().then(() => undefined) };
};

/** The writer in this thread, its messages handled one after another as the worker would. */
const inThread = (receive: (a: FromSheets) => void) => {
  const work = new SheetWork();
  let queue = Promise.resolve();
  const post: Post = (m) => {
    queue = queue.then(async () => {
      const a = await work.handle(m);
      if (a !== null) receive(a);
    });
  };
  return { post, stop: () => queue };
};

export class Sheets {
  private readonly post: Post;
  private readonly stop: () => Promise<void>;
  private inFlight = 0;
  private failure: Error | null = null;
  private stopped = false;
  private readonly waiting = new Set<() => void>();
  private readonly closing = new Map<number, (parts: DeflatedPart[]) => void>();
  private stringsWanted: ((xml: string) => void) | null = null;
  private seq = 0;

  constructor() {
    const receive = (a: FromSheets) => this.receive(a);
    const fail = (e: Error) => this.fail(e);
    const channel = inWorker(receive, fail) ?? inThread(receive);
    this.post = channel.post;
    this.stop = channel.stop;
  }

  private receive(a: FromSheets): void {
    if (a.t === 'took') {
      this.inFlight -= a.bytes;
      if (this.inFlight <= IN_FLIGHT_BYTES / 2) this.wake();
    } else if (a.t === 'closed') this.closing.get(a.id)?.(a.parts);
    else if (a.t === 'strings') this.stringsWanted?.(a.xml);
    else this.fail(new Error(`The workbook could not be written: ${a.message}`));
  }

  private fail(e: Error): void {
    if (this.stopped) return;
    this.failure ??= e;
    this.wake();
    for (const done of this.closing.values()) done([]);
    this.stringsWanted?.('');
  }

  private wake(): void {
    for (const w of this.waiting) w();
    this.waiting.clear();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  /** A new sheet; returns where its CSV's bytes go. */
  open(spec: SheetSpec): (chunk: Uint8Array) => void {
    const id = ++this.seq;
    this.post({ t: 'open', id, spec });
    return (chunk) => {
      if (this.failure) return;
      const bytes = new Uint8Array(chunk);
      this.inFlight += bytes.length;
      this.post({ t: 'bytes', id, bytes }, [bytes.buffer]);
    };
  }

  get blocked(): boolean {
    return this.inFlight > IN_FLIGHT_BYTES || this.failure !== null;
  }

  async ready(): Promise<void> {
    this.check();
    while (this.inFlight > IN_FLIGHT_BYTES / 2 && this.failure === null)
      await new Promise<void>((resolve) => this.waiting.add(resolve));
    this.check();
  }

  /** The parts of every sheet opened, in the order opened, once each is written. */
  async close(): Promise<DeflatedPart[][]> {
    const ids = Array.from({ length: this.seq }, (_, i) => i + 1);
    const parts = await Promise.all(
      ids.map(
        (id) =>
          new Promise<DeflatedPart[]>((resolve) => {
            this.closing.set(id, resolve);
            this.post({ t: 'close', id });
          }),
      ),
    );
    this.check();
    return parts;
  }

  /** The shared-strings part's XML, once every sheet is closed. */
  async sharedStrings(): Promise<string> {
    const xml = await new Promise<string>((resolve) => {
      this.stringsWanted = resolve;
      this.post({ t: 'strings' });
    });
    this.check();
    return xml;
  }

  /** Ends the writer (its thread, if it has one). */
  async end(): Promise<void> {
    this.stopped = true;
    await this.stop();
  }

  /** Stops writing the sheets (the export is being abandoned; its folder is removed). */
  async abandon(): Promise<void> {
    if (!this.stopped && this.failure === null) this.post({ t: 'abandon' });
    await this.end();
  }
}
