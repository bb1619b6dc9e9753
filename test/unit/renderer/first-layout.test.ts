/**
 * A chart's first layout (renderer/src/components/first-layout.ts) and work put after the next paint
 * (renderer/src/lib/after-paint.ts): what the charts of a 200-session participant use to draw in the
 * frame that lays them out, without forcing a layout of the page first.
 */
import { describe, expect, it } from 'vitest';
import { inWindow, readFirstLayouts, watchFirstLayout } from '../../../renderer/src/components/first-layout';
import { afterPaint } from '../../../renderer/src/lib/after-paint';

describe('a box in the window', () => {
  it('is in the window when any part of it lies between the top and the bottom of the window', () => {
    expect(inWindow({ top: 10, bottom: 180 }, 900)).toBe(true);
    expect(inWindow({ top: -170, bottom: 1 }, 900)).toBe(true);
    expect(inWindow({ top: 899, bottom: 1069 }, 900)).toBe(true);
  });
  it('is not in the window when it lies wholly above or below it', () => {
    expect(inWindow({ top: -170, bottom: 0 }, 900)).toBe(false);
    expect(inWindow({ top: 900, bottom: 1070 }, 900)).toBe(false);
  });
});

describe("one report's first layouts", () => {
  it('gives each box its width and whether it is in the window, every box read before any is told', () => {
    const order: string[] = [];
    const boxes: Record<string, { top: number; bottom: number }> = {
      a: { top: 400, bottom: 570 },
      b: { top: 1200, bottom: 1370 },
    };
    const read = readFirstLayouts(
      [
        { target: 'a', contentRect: { width: 512 } },
        { target: 'b', contentRect: { width: 498 } },
      ],
      (t) => {
        order.push(`read ${t}`);
        return boxes[t]!;
      },
      900,
    );
    expect(order).toEqual(['read a', 'read b']);
    expect(read).toEqual([
      { target: 'a', layout: { width: 512, inWindow: true } },
      { target: 'b', layout: { width: 498, inWindow: false } },
    ]);
  });
  it('leaves the caller to decide where there is no ResizeObserver (it says so with null)', () => {
    expect(typeof ResizeObserver).toBe('undefined');
    expect(
      watchFirstLayout(
        {} as Element,
        () => undefined,
        (f) => f(),
      ),
    ).toBeNull();
  });
});

describe('after the next paint', () => {
  it('runs the work in a task queued from the next frame, not in the frame itself', async () => {
    let frame: (() => void) | undefined;
    const done: string[] = [];
    afterPaint(
      () => done.push('focus'),
      (cb) => {
        frame = cb;
        return 1;
      },
      () => undefined,
    );
    expect(done).toEqual([]);
    frame!();
    expect(done).toEqual([]);
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toEqual(['focus']);
  });
  it('runs nothing once cancelled, before or after its frame', async () => {
    const cancelled: number[] = [];
    let frame: (() => void) | undefined;
    const done: string[] = [];
    const cancel = afterPaint(
      () => done.push('focus'),
      (cb) => {
        frame = cb;
        return 7;
      },
      (id) => cancelled.push(id),
    );
    frame!();
    cancel();
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toEqual([]);
    expect(cancelled).toEqual([7]);
  });
});
