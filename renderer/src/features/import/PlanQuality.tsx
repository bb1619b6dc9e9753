/**
 * The recording quality control of an import preview's files, before anything is sent (no credit spent):
 * how many are good, usable or poor, and the reasons for each file that is not good. Checked on demand
 * (the files are read on worker threads in the main process), through `acoustics.planQuality`.
 */
import { useState } from 'react';
import { Badge } from '../../components/Badges';
import { QueryView } from '../../components/Feedback';
import { useCall } from '../../lib/api';
import { fmtInt } from '../../lib/format';

const VERDICT = {
  good: { label: 'Good', tone: 'ok' },
  usable: { label: 'Usable', tone: 'warn' },
  poor: { label: 'Poor', tone: 'bad' },
} as const;

const fileName = (p: string) => p.split(/[\\/]/).pop() ?? p;

const Results = ({ planId }: { planId: string }) => {
  const q = useCall('acoustics.planQuality', { planId }, { staleTime: Infinity });
  return (
    <QueryView q={q} loading="Checking the recordings…">
      {(files) => {
        if (files === null) return <p>This preview is gone: preview the files again.</p>;
        const count = (v: keyof typeof VERDICT) => files.filter((f) => f.quality?.verdict === v).length;
        const notGood = files.filter((f) => f.quality?.verdict !== 'good');
        return (
          <>
            <p>
              {(['good', 'usable', 'poor'] as const).map((v) => (
                <span key={v}>
                  <Badge tone={VERDICT[v].tone}>{VERDICT[v].label}</Badge> {fmtInt(count(v))}{' '}
                </span>
              ))}
              {files.some((f) => f.quality === null) && (
                <>· not checked {fmtInt(files.filter((f) => f.quality === null).length)}</>
              )}
            </p>
            {notGood.length > 0 && (
              <ul>
                {notGood.map((f) => (
                  <li key={f.path}>
                    <code>{fileName(f.path)}</code>:{' '}
                    {f.quality ? (
                      <>
                        <Badge tone={VERDICT[f.quality.verdict].tone}>
                          {VERDICT[f.quality.verdict].label}
                        </Badge>{' '}
                        {f.quality.reasons.join('; ')}
                      </>
                    ) : (
                      <>not checked ({f.problem})</>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        );
      }}
    </QueryView>
  );
};

export const PlanQuality = ({ planId }: { planId: string }) => {
  const [asked, setAsked] = useState(false);
  return (
    <div className="plan-quality">
      <h3>Recording quality</h3>
      {asked ? (
        <Results planId={planId} />
      ) : (
        <p>
          Noise, clipping, levels and long silences of each file, checked on this machine before any credit is
          spent.{' '}
          <button type="button" onClick={() => setAsked(true)}>
            Check recording quality
          </button>
        </p>
      )}
    </div>
  );
};
