/**
 * The window reads the first screen's answers from its page (renderer/src/lib/rpc/first-screen-data.ts)
 * as the bridge wrote them, escapes and all, and asks over its connection instead when the block is
 * missing or not what it should be.
 */
import { describe, expect, it } from 'vitest';
import { jsonForScriptElement } from '../../../main/rpc/first-screen-data';
import { parseFirstScreenData } from '../../../renderer/src/lib/rpc/first-screen-data';

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
