import { describe, expect, it } from 'vitest';
import {
  createConnectionWatch,
  isConnectionLost,
  type ConnectionChange,
} from '../../../../main/db/store/connection-watch';

const withCode = (code: string) => Object.assign(new Error('failed'), { code });

describe('a lost connection is told apart from a failed query', () => {
  it.each([
    ['the server shut down (57P01)', withCode('57P01')],
    ['a connection exception (08006)', withCode('08006')],
    ['the server refused the connection', withCode('ECONNREFUSED')],
    ['the connection was reset', withCode('ECONNRESET')],
    ['the socket closed under the driver', new Error('Connection terminated unexpectedly')],
  ])('%s is a lost connection', (_, e) => expect(isConnectionLost(e)).toBe(true));

  it.each([
    ['a unique violation', withCode('23505')],
    ['a serialisation failure', withCode('40001')],
    ['a syntax error', withCode('42601')],
    ['an error with no code', new Error('something else')],
    ['not an error', 'Connection terminated'],
  ])('%s is not', (_, e) => expect(isConnectionLost(e)).toBe(false));
});

const fastWatch = (answers: boolean[]) => {
  let probes = 0;
  const watch = createConnectionWatch({
    probe: () => {
      probes++;
      return answers.shift() === true ? Promise.resolve() : Promise.reject(withCode('ECONNREFUSED'));
    },
    backoffMs: [1, 2],
  });
  const changes: ConnectionChange['state'][] = [];
  watch.onChange((c) => changes.push(c.state));
  return { watch, changes, probes: () => probes };
};

describe('the connection watch', () => {
  it('ignores a failure that is not a lost connection', async () => {
    const { watch, changes, probes } = fastWatch([]);
    watch.noteFailure(withCode('23505'));
    expect(watch.lost).toBe(false);
    await watch.whenConnected();
    expect(changes).toEqual([]);
    expect(probes()).toBe(0);
  });

  it('says lost once, probes until the server answers, then says restored once', async () => {
    const { watch, changes, probes } = fastWatch([false, false, true]);
    watch.noteFailure(withCode('57P01'));
    watch.noteFailure(new Error('Connection terminated unexpectedly'));
    expect(watch.lost).toBe(true);
    expect(changes).toEqual(['lost']);
    await watch.whenConnected();
    expect(watch.lost).toBe(false);
    expect(changes).toEqual(['lost', 'restored']);
    expect(probes()).toBe(3);
  });

  it('is lost again, and restored again, the next time', async () => {
    const { watch, changes } = fastWatch([true, true]);
    watch.noteFailure(withCode('ECONNRESET'));
    await watch.whenConnected();
    watch.noteFailure(withCode('ECONNRESET'));
    await watch.whenConnected();
    expect(changes).toEqual(['lost', 'restored', 'lost', 'restored']);
  });

  it('closed, stops probing and lets whoever waits go', async () => {
    const { watch, changes, probes } = fastWatch([]);
    watch.noteFailure(withCode('ECONNREFUSED'));
    const waiting = watch.whenConnected();
    watch.close();
    await waiting;
    await new Promise((r) => setTimeout(r, 20));
    expect(probes()).toBe(0);
    expect(changes).toEqual(['lost']);
  });
});
