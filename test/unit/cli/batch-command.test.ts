/** `voicescope batch pause|resume|cancel` says what it did in plain words ("cancelled", never "canceld"). */
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../main/cli/command';
import { batchCommand } from '../../../main/cli/commands/batch.command';

const runBatch = async (sub: string, moved: boolean) => {
  const said: string[] = [];
  const ctx = {
    svc: { pauseBatch: () => moved, resumeBatch: () => moved, cancelBatch: () => moved },
    out: {
      json: false,
      say: (_kind: string, text: string) => said.push(text),
      problem: (text: string) => said.push(text),
      progress: () => {},
      done: () => {},
    },
    values: { batch: '7' },
    sub,
    rest: [],
  } as unknown as CommandContext;
  const code = await batchCommand.run(ctx);
  return { code, said };
};

describe('voicescope batch', () => {
  it.each([
    ['pause', 'Batch 7: paused.'],
    ['resume', 'Batch 7: resumed.'],
    ['cancel', 'Batch 7: cancelled.'],
  ])('%s says "%s"', async (sub, text) => {
    expect((await runBatch(sub, true)).said).toEqual([text]);
  });

  it('says in the same words what could not be done', async () => {
    expect((await runBatch('cancel', false)).said).toEqual([
      'Batch 7 cannot be cancelled in its current state.',
    ]);
  });
});
