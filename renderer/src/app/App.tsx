/**
 * The workstation window: a sidebar (studies, the current study's screens, usage, settings) and the
 * routed page. Hash routing works the same from the Electron app:// scheme and the browser-mode host.
 * First run (no service profile yet) goes to setup.
 */
import { Suspense, useEffect, useState } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation, useRoute } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { SimulatedBadge } from '../components/Badges';
import { ErrorNotice, Loading } from '../components/Feedback';
import { useCall, useRpc } from '../lib/api';
import type { WsTransport } from '../lib/rpc/ws-transport';
import { applyTheme, storedTheme, type ThemeChoice } from '../lib/theme';
import { DatabaseConnectionBanner } from '../features/team/DatabaseConnectionBanner';
import { useTeamSession } from '../features/team/team-session';
import { TEAM_ROLE_LABEL } from '../lib/labels';
import type { TeamWork } from '../../../shared/team';
import { preloadScreen } from './lazy-screen';
import { featureRoutes } from './routes';
import { paths, patterns } from './paths';

const StudyNav = ({ studyId }: { studyId: number }) => {
  const study = useCall('studies.get', { studyId });
  const session = useTeamSession();
  const at = paths.study(studyId);
  // The screens of work the member's role may not do are not offered (the server refuses them anyway).
  const items: [string, string, TeamWork?][] = [
    ['Overview', at.overview],
    ['Participants', at.participants],
    ['Design and visits', at.design],
    ['Cohort', at.cohort],
    ['Recordings', at.recordings],
    ['Batches', at.batches],
    ['Import', at.import, 'import'],
    ['Export', at.export, 'export'],
    ['Archive and delete', at.data, 'deleteData'],
  ];
  const shown = items.filter(([, , work]) => !work || !session.data || session.data.allowed.includes(work));
  return (
    <div className="nav-study">
      <p className="nav-study-name">
        {study.data?.name ?? '…'} {study.data?.simulated && <SimulatedBadge />}
      </p>
      <ul>
        {shown.map(([label, href]) => (
          <li key={href}>
            <NavLink href={href} exact={label === 'Overview'}>
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
};

const NavLink = ({ href, children, exact = false }: { href: string; children: string; exact?: boolean }) => {
  const [active] = useRoute(exact ? href : `${href}/*?`);
  return (
    <Link href={href} className={active ? 'active' : undefined} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
};

const ThemeSwitch = () => {
  // The stored choice is this computer's (localStorage), which the host rendering the first screen into
  // the page cannot read: read after mount, so the first render is the same on both sides.
  const [t, setT] = useState<ThemeChoice>('system');
  useEffect(() => setT(storedTheme()), []);
  return (
    <label className="theme-switch">
      Theme{' '}
      <select
        value={t}
        onChange={(e) => {
          const v = e.target.value as ThemeChoice;
          setT(v);
          applyTheme(v);
        }}
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
};

const ConnectionBanner = ({ connection }: { connection: WsTransport | null }) => {
  const [state, setState] = useState(connection?.state() ?? 'open');
  useEffect(() => connection?.onState(setState), [connection]);
  if (state !== 'closed') return null;
  return (
    <div className="notice notice-bad connection" role="alert">
      Lost the connection to Voicescope's background service; reconnecting… If this lasts, check that{' '}
      <code>npm start</code> is still running.
    </div>
  );
};

/** On a team study: the member's login and role, under the window's name. */
const TeamLine = () => {
  const session = useTeamSession();
  const s = session.data;
  if (!s || s.database !== 'team') return null;
  return (
    <p className="muted small team-line">
      Team study · {s.login} ({s.role ? TEAM_ROLE_LABEL[s.role] : 'no role'})
    </p>
  );
};

const Sidebar = () => {
  const [inStudy, params] = useRoute(patterns.inStudy);
  const studyId = inStudy && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const info = useCall('app.info', {});
  // In a narrow window (or at 200 % zoom) the links fold into a menu above the page; choosing a
  // screen folds it again.
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  useEffect(() => setOpen(false), [location]);
  return (
    <nav className="sidebar" aria-label="Main">
      <p className="brand">Voicescope</p>
      <TeamLine />
      <button
        type="button"
        className="button menu-toggle"
        aria-expanded={open}
        aria-controls="nav-links"
        onClick={() => setOpen((o) => !o)}
      >
        Menu
      </button>
      <div id="nav-links" className={`nav-links${open ? ' open' : ''}`}>
        <ul>
          <li>
            <NavLink href={paths.studies} exact>
              Studies
            </NavLink>
          </li>
        </ul>
        {studyId !== null && <StudyNav studyId={studyId} />}
        <ul>
          <li>
            <NavLink href={paths.usage}>Usage and credits</NavLink>
          </li>
          <li>
            <NavLink href={paths.settings}>Settings</NavLink>
          </li>
          <li>
            <NavLink href={paths.privacy}>Privacy and audit</NavLink>
          </li>
        </ul>
        <div className="sidebar-foot">
          <ThemeSwitch />
          {info.data && (
            <p className="muted small">
              {info.data.mode === 'browser' ? 'Browser mode' : 'Desktop app'} · v{info.data.version}
            </p>
          )}
        </div>
      </div>
    </nav>
  );
};

/**
 * The screens Home leads to, whose code starts loading with the window's scripts (it is announced in
 * the page too, scripts/build.mjs FIRST_MODULES, except in a page the host rendered the screen into),
 * so it is in hand when `app.info` answers.
 */
const FIRST_SCREENS: readonly string[] = [patterns.setup, patterns.studies];
for (const [path, screen] of featureRoutes) if (FIRST_SCREENS.includes(path)) preloadScreen(screen);

const Home = () => {
  const info = useCall('app.info', {});
  if (info.error) return <ErrorNotice error={info.error.appError} onRetry={() => void info.refetch()} />;
  if (!info.data) return <Loading />;
  return <Redirect to={info.data.firstRun ? paths.setup : paths.studies} />;
};

/**
 * The contract's checks (zod and every schema, the heaviest code to start) load once a screen has
 * drawn, in the task after its paint: the first screen is drawn without them (lib/rpc/client.ts).
 */
const ChecksAfterFirstScreen = () => {
  const rpc = useRpc();
  const [location] = useLocation();
  const drawn = location !== '/';
  useEffect(() => {
    if (!drawn) return;
    const frame = requestAnimationFrame(() => setTimeout(() => void rpc.contract(), 0));
    return () => cancelAnimationFrame(frame);
  }, [rpc, drawn]);
  return null;
};

const NotFound = () => (
  <div className="page">
    <h1 tabIndex={-1}>Page not found</h1>
    <p>
      This address does not lead to a screen. <Link href={paths.studies}>Go to the studies</Link>.
    </p>
  </div>
);

/**
 * Calls `onMount` once the screens' Suspense boundary has committed: for a page the host rendered, once
 * React has taken the screen itself over (a boundary is taken over after the window's frame, on its own).
 */
const Mounted = ({ onMount }: { onMount: (() => void) | undefined }) => {
  useEffect(() => onMount?.(), [onMount]);
  return null;
};

export const App = ({
  connection,
  ssrPath,
  onMount,
}: {
  connection: WsTransport | null;
  /** The screen the host rendered (ssr/first-screen.tsx): the location until React has taken the page over. */
  ssrPath?: string | undefined;
  onMount?: (() => void) | undefined;
}) => (
  <Router hook={useHashLocation} {...(ssrPath === undefined ? {} : { ssrPath })}>
    <ChecksAfterFirstScreen />
    <a
      className="skip-link"
      href="#main"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      Skip to content
    </a>
    <div className="app">
      <Sidebar />
      <main id="main" tabIndex={-1}>
        <ConnectionBanner connection={connection} />
        <DatabaseConnectionBanner />
        {/* Each screen's code is loaded when first shown (lazy-screen.ts); a loading line stands in meanwhile. */}
        <Suspense fallback={<Loading />}>
          <Switch>
            <Route path="/" component={Home} />
            {featureRoutes.map(([path, Component]) => (
              <Route key={path} path={path} component={Component} />
            ))}
            <Route component={NotFound} />
          </Switch>
          <Mounted onMount={onMount} />
        </Suspense>
      </main>
    </div>
  </Router>
);
