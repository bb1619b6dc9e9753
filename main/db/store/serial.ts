/**
 * One connection, one thing at a time: SQLite's single connection and PGlite's are shared by every
 * caller, so a transaction must have the connection to itself from BEGIN to COMMIT. `Serial` runs
 * tasks one after another, in the order asked.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
