/** Page scaffolding: a heading that takes focus on navigation (so screen readers announce the new page), sections, tabs. */
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { afterPaint } from '../lib/after-paint';

/**
 * On navigation (not on first load, where the skip link comes first) the new page's heading takes
 * focus, so keyboard and screen-reader users start on the page they asked for.
 */
let navigated = false;
// (No window when the host renders the first screen into the page: ssr/first-screen.tsx.)
if (typeof window !== 'undefined')
  window.addEventListener('hashchange', () => {
    navigated = true;
  });

export const PageHeader = ({
  title,
  subtitle,
  actions,
  badge,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  badge?: ReactNode;
}) => {
  const h = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Voicescope`;
    if (!navigated) return;
    // After the frame that shows the page is painted: focus needs the page's style and layout, and
    // asked for here, in the commit that made the page, it forced them before that frame (20–30 ms of a
    // 200-session participant's charts); a frame later they are already done. Not when
    // something else took focus meanwhile (a click, a key).
    const before = document.activeElement;
    return afterPaint(() => {
      if (document.activeElement === before) h.current?.focus({ preventScroll: true });
    });
  }, [title]);
  return (
    <header className="page-header">
      <div>
        <h1 ref={h} tabIndex={-1}>
          {title} {badge}
        </h1>
        {subtitle && <p className="subtitle">{subtitle}</p>}
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
};

export const Section = ({
  title,
  children,
  actions,
  id,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  id?: string;
}) => (
  <section className="section" aria-labelledby={id ?? title.replace(/\W+/g, '-').toLowerCase()}>
    <div className="section-head">
      <h2 id={id ?? title.replace(/\W+/g, '-').toLowerCase()}>{title}</h2>
      {actions && <div className="actions">{actions}</div>}
    </div>
    {children}
  </section>
);

/** Links styled as tabs; the current one is marked for assistive technology. */
export const TabLink = ({ href, children, match }: { href: string; children: ReactNode; match?: string }) => {
  const [active] = useRoute(match ?? href);
  return (
    <Link href={href} className={`tab${active ? ' active' : ''}`} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
};

export const Stat = ({
  label,
  value,
  tone,
}: {
  label: string;
  value: ReactNode;
  tone?: 'ok' | 'warn' | 'bad';
}) => (
  <div className={`stat${tone ? ` stat-${tone}` : ''}`}>
    <div className="stat-value">{value}</div>
    <div className="stat-label">{label}</div>
  </div>
);
