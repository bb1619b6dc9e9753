/**
 * When the service profile's whole queue is paused: why, in words, and what to do. The engine pauses
 * everything on refusals that concern the organisation (key refused, suspended, no billing, credits
 * used up) until the researcher resumes; a rate limit resumes by itself at the time shown. Results of
 * what was already sent keep being collected either way.
 */
import { fmtInt } from '../../lib/format';
import { useEffect, useState } from 'react';
import { ErrorNotice } from '../../components/Feedback';
import { useAction, useCall } from '../../lib/api';

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Seconds until `ms`, refreshed every second while the banner shows. */
const useSecondsUntil = (ms: number | null) => {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (ms === null) return undefined;
    const t = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(t);
  }, [ms]);
  return ms === null ? null : Math.max(0, Math.ceil((ms - now) / 1000));
};

export const QueueBanner = ({ profileId }: { profileId: number }) => {
  const q = useCall('queue.state', { profileId }, { staleTime: 0 });
  const resume = useAction('queue.resume');
  const pause = q.data?.pause ?? null;
  const left = useSecondsUntil(pause?.untilMs ?? null);
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (!pause) return null;
  const selfResuming = pause.untilMs !== null;
  return (
    <div
      className={`notice ${selfResuming ? 'notice-warn' : 'notice-bad'} queue-banner`}
      role={selfResuming ? 'status' : 'alert'}
    >
      <p className="notice-title">
        {selfResuming
          ? 'Sending is paused for a moment'
          : 'Sending is paused for every batch of this service'}
      </p>
      <p>{pause.reason}</p>
      {selfResuming ? (
        <p>
          It resumes by itself at {clock.format(new Date(pause.untilMs!))}
          {left !== null && left > 0 ? ` (in about ${fmtInt(left)} s)` : ''}. Nothing was charged for the
          refused request; results keep arriving.
        </p>
      ) : (
        <>
          <p>
            Files waiting stay queued and were not charged; results of files already sent keep arriving. When
            the cause is fixed, resume sending.
          </p>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={resume.pending}
              onClick={() => void resume.run({ profileId })}
            >
              Resume sending
            </button>
          </div>
          <ErrorNotice error={resume.error} />
        </>
      )}
    </div>
  );
};
