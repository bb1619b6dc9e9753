/**
 * A table that scrolls sideways inside itself when the window is too narrow for it (200 % zoom), so
 * the page never does. The scrolling box is a named region and one tab stop, so keyboard users can
 * scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
import type { ReactNode } from 'react';

export const TableScroll = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
    {children}
  </div>
);
