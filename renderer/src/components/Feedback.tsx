/** Loading, empty and error states, the same on every screen. Errors always say what happened and what to do. */
import { useState, type ReactNode } from 'react';
import type { AppError } from '../../../shared/rpc';
import { explainApiError } from '../../../shared/api/api-error-explained';

export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <div className="loading" role="status" aria-live="polite">
    <span className="spinner" aria-hidden="true" />
    {label}
  </div>
);

export const Empty = ({ title, children }: { title: string; children?: ReactNode }) => (
  <div className="empty">
    <p className="empty-title">{title}</p>
    {children}
  </div>
);

export const ErrorNotice = ({
  error,
  onRetry,
  title,
}: {
  error: AppError | null | undefined;
  onRetry?: () => void;
  title?: string;
}) => {
  const [open, setOpen] = useState(false);
  if (!error) return null;
  const api = error.apiError;
  return (
    <div className="notice notice-bad" role="alert">
      {title && <p className="notice-title">{title}</p>}
      <p>{error.message}</p>
      <p className="notice-action">{error.action}</p>
      {api?.serviceMessage && <p className="muted">The service said: “{api.serviceMessage}”</p>}
      <div className="row">
        {onRetry && (error.retryable || error.code === 'UPSTREAM') && (
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        )}
        {(api || error.issues) && (
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide details' : 'Technical details'}
          </button>
        )}
      </div>
      {open && (
        <pre className="details">
          {api
            ? `${api.endpoint}: ${api.kind}${api.status !== null ? ` (HTTP ${api.status})` : ''}${api.serviceType ? `, type ${api.serviceType}` : ''}${api.path ? `, at ${api.path}` : ''}${api.detail ? `\n${api.detail}` : ''}\n${explainApiError(api).summary}`
            : ''}
          {error.issues?.map((i) => `${i.path}: ${i.message}`).join('\n')}
        </pre>
      )}
    </div>
  );
};

export const Notice = ({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warn' | 'ok' | 'bad';
  title?: string;
  children: ReactNode;
}) => (
  <div className={`notice notice-${tone}`} role={tone === 'bad' ? 'alert' : 'status'}>
    {title && <p className="notice-title">{title}</p>}
    {children}
  </div>
);

/** Renders a query's three states; `children` gets the data. */
export const QueryView = <T,>({
  q,
  children,
  loading,
}: {
  q: {
    isPending: boolean;
    error: { appError: AppError } | null;
    data: T | undefined;
    refetch: () => unknown;
  };
  children: (data: T) => ReactNode;
  loading?: string;
}) => {
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (q.isPending || q.data === undefined) return <Loading {...(loading ? { label: loading } : {})} />;
  return <>{children(q.data)}</>;
};
