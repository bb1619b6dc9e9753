/**
 * The window reads the first screen's answers from its page (renderer/src/lib/rpc/first-screen-data.ts)
 * as the bridge wrote them, escapes and all, and asks over its connection instead when the block is
 * missing or not what it should be.
 */
import { describe, expect, it } from 'vitest';
import { jsonForScriptElement } from '../../../main/rpc/first-screen-data';
import { hashLeadsTo, parseFirstScreenData } from '../../../renderer/src/lib/rpc/first-screen-data';

const INFO = {
  version: '1.0.0',
  mode: 'browser',
  platform: 'linux',
  workspaceDir: '/home/r/</script>\u2028',
  keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'n' },
  capabilities: { nativeDialogs: false },
  firstRun: false,
};

describe("the first screen's answers in the window", () => {
  it('are read back as the host wrote them, escapes undone', () => {
    expect(parseFirstScreenData(jsonForScriptElement({ 'app.info': INFO }))).toEqual({ 'app.info': INFO });
  });

  it('are none when the block is missing, not JSON, or holds no app.info object', () => {
    for (const text of [null, '', '{', 'null', '[]', '{"app.info": 3}', '{"other": {}}'])
      expect(parseFirstScreenData(text), String(text)).toBeNull();
  });
});

describe('the first screen rendered into the page, in the window', () => {
  it("is read with the screen's path and its other answers", () => {
    const data = {
      'app.info': INFO,
      rendered: '/studies',
      answers: [{ method: 'studies.list', input: {}, value: [] }],
    };
    expect(parseFirstScreenData(jsonForScriptElement(data))).toEqual(data);
  });

  it('drops a path that is not text and answers that are not calls', () => {
    const text = jsonForScriptElement({ 'app.info': INFO, rendered: 3, answers: [{ value: 1 }, 'x', null] });
    expect(parseFirstScreenData(text)).toEqual({ 'app.info': INFO });
  });

  it('is taken over when the address leads to it: Home, or the screen itself, and nothing else', () => {
    for (const hash of ['', '#', '#/', '#/setup']) expect(hashLeadsTo(hash, '/setup'), hash).toBe(true);
    for (const hash of ['#/studies', '#/setup/x', '#/studies/1/participants'])
      expect(hashLeadsTo(hash, '/setup'), hash).toBe(false);
  });
});
