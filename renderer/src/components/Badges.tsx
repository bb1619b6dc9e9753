/** Small state labels: colour and text together (never colour alone), so they read in any theme and to screen readers. */
import type { ReactNode } from 'react';
import type { Tone } from '../lib/labels';

export const Badge = ({ tone, children, title }: { tone: Tone; children: ReactNode; title?: string }) => (
  <span className={`badge badge-${tone}`} {...(title ? { title } : {})}>
    {children}
  </span>
);

/** Every place that shows values from the built-in sandbox says so. */
export const SimulatedBadge = ({ long = false }: { long?: boolean }) => (
  <span
    className="badge badge-sim"
    title="These values come from the built-in sandbox: simulated, not a real analysis."
  >
    {long ? 'Simulated results (sandbox)' : 'Simulated'}
  </span>
);
