/**
 * Wraps a PagedTable so that its scrolling body is reachable by keyboard. A table long enough to scroll
 * otherwise fails axe's "scrollable region must have keyboard access" (WCAG 2.1.1): its rows hold
 * nothing focusable and the focusable grid is the body's parent, not the region itself. The body
 * becomes a focusable row group (a role a grid may contain, so the grid's structure stays valid); its
 * arrow keys reach the grid's own handler, which moves the active row and scrolls to it.
 *
 * This belongs in PagedTable itself (better still: the grid role, focus and aria-activedescendant on
 * the scrolling element, with a sticky header); until its owner changes it there, this wrapper marks
 * every table body that appears inside it.
 */
import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';

/**
 * `minWidth`: the sum of the columns' smallest widths. Below it (a narrow window, 125 % zoom) the
 * whole table, header and rows together, scrolls sideways inside this wrapper instead of pushing the
 * page wider or letting the rows scroll apart from their header.
 */
export const ScrollableGrid = ({ children, minWidth }: { children: ReactNode; minWidth?: string }) => {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return undefined;
    const mark = () => {
      for (const body of root.querySelectorAll<HTMLElement>('.grid-body:not([tabindex])')) {
        body.setAttribute('role', 'rowgroup');
        body.tabIndex = 0;
      }
    };
    mark();
    const watch = new MutationObserver(mark);
    watch.observe(root, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, []);
  const style = minWidth ? ({ '--grid-min': minWidth } as CSSProperties) : undefined;
  return <div ref={ref} className="scrollable-grid" style={style}>{children}</div>;
};
