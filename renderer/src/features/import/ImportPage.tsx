/**
 * The import wizard: (1) choose files and how they map to participants, (2) preview what each file
 * would become (read in the main process, paged here), (3) confirm the cost and the accounts, then
 * import and start. A visible step indicator; each step's heading takes focus when it opens, so
 * keyboard and screen-reader users land on it. The preview is held by the main process; a newer one
 * replaces it and the old one is discarded.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { ApiVersion } from '../../../../shared/api/vocabulary';
import type { PlanSummary } from '../../../../shared/contract/imports.contract';
import type { AppError } from '../../../../shared/rpc';
import { SimulatedBadge } from '../../components/Badges';
import { QueryView } from '../../components/Feedback';
import { PageHeader } from '../../components/Page';
import { useCall, useEvent, useRpc } from '../../lib/api';
import { ChooseStep } from './ChooseStep';
import { ConfirmStep } from './ConfirmStep';
import { initialChoice, lastSegment, previewRequest, type ImportChoice } from './import-choice';
import { PreviewStep } from './PreviewStep';
import { paths } from '../../app/paths';
import { serviceName } from '../../lib/labels';
import { fmtDate } from '../../lib/format';

type StepName = 'choose' | 'preview' | 'confirm';
const STEPS: readonly { key: StepName; label: string }[] = [
  { key: 'choose', label: 'Choose files' },
  { key: 'preview', label: 'Preview' },
  { key: 'confirm', label: 'Confirm and start' },
];

const StepIndicator = ({
  current,
  reachable,
  onGo,
}: {
  current: StepName;
  reachable: (s: StepName) => boolean;
  onGo: (s: StepName) => void;
}) => {
  const at = STEPS.findIndex((s) => s.key === current);
  return (
    <nav aria-label="Import steps">
      <ol className="steps">
        {STEPS.map((s, i) => {
          const state = i < at ? 'done' : i === at ? 'current' : 'todo';
          const text = (
            <>
              <span className="step-number" aria-hidden="true">
                {i + 1}
              </span>{' '}
              {s.label}
              <span className="sr-only">
                {state === 'done' ? ' (done)' : state === 'todo' ? ' (to do)' : ''}
              </span>
            </>
          );
          return (
            <li
              key={s.key}
              className={`step step-${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              {state !== 'current' && reachable(s.key) ? (
                <button type="button" className="link" onClick={() => onGo(s.key)}>
                  {text}
                </button>
              ) : (
                <span>{text}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
};

/** The set with `path` added (v) or removed. */
const toggled = (s: ReadonlySet<string>, path: string, v: boolean): ReadonlySet<string> => {
  const n = new Set(s);
  if (v) n.add(path);
  else n.delete(path);
  return n;
};

const Wizard = ({
  studyId,
  version,
  simulated,
}: {
  studyId: number;
  version: ApiVersion;
  simulated: boolean;
}) => {
  const rpc = useRpc();
  const [, navigate] = useLocation();
  const [step, setStep] = useState<StepName>('choose');
  const [choice, setChoice] = useState<ImportChoice>(() => initialChoice(version));
  const [summary, setSummary] = useState<PlanSummary | null>(null);
  const [previewError, setPreviewError] = useState<AppError | null>(null);
  const [pending, setPending] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [insist, setInsist] = useState<ReadonlySet<string>>(new Set());
  const [borderline, setBorderline] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  const planRef = useRef<string | null>(null);
  const run = useRef(0);

  // A new step's heading takes focus (not on arrival: the page heading has it then).
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current !== step) heading.current?.focus();
    shownStep.current = step;
  }, [step]);
  // The main process holds previews; one left behind (the researcher went elsewhere) is discarded.
  useEffect(
    () => () => {
      if (planRef.current) void rpc.call('imports.discard', { planId: planRef.current });
    },
    [rpc],
  );

  useEvent(
    'imports.progress',
    useCallback(
      (p: { done: number; total: number }) => {
        if (pending) setProgress(p);
      },
      [pending],
    ),
  );

  const preview = async (c: ImportChoice) => {
    const mine = ++run.current;
    setPending(true);
    setProgress(null);
    setPreviewError(null);
    setStep('preview');
    const old = planRef.current;
    planRef.current = null;
    if (old) void rpc.call('imports.discard', { planId: old });
    const r = await rpc.call('imports.preview', previewRequest(studyId, c));
    if (mine !== run.current) {
      if (r.ok) void rpc.call('imports.discard', { planId: r.value.planId });
      return;
    }
    setPending(false);
    if (r.ok) {
      planRef.current = r.value.planId;
      setSummary(r.value);
      setInsist(new Set());
      setBorderline(new Set());
    } else {
      setSummary(null);
      setPreviewError(r.error);
    }
  };

  const title = STEPS.find((s) => s.key === step)!.label;
  return (
    <>
      <StepIndicator
        current={step}
        onGo={setStep}
        reachable={(s) =>
          s === 'choose' ? !pending : s === 'preview' ? summary !== null && !pending : false
        }
      />
      <section className="section wizard-step" aria-labelledby="step-heading">
        <h2 id="step-heading" ref={heading} tabIndex={-1}>
          Step {STEPS.findIndex((s) => s.key === step) + 1} of 3: {title}
        </h2>
        {step === 'choose' && (
          <ChooseStep
            choice={choice}
            onChange={setChoice}
            version={version}
            onPreview={() => void preview(choice)}
          />
        )}
        {step === 'preview' && (
          <PreviewStep
            summary={summary}
            pending={pending}
            error={previewError}
            progress={progress}
            convert={choice.convert}
            onConvert={(v) => {
              const c = { ...choice, convert: v };
              setChoice(c);
              void preview(c);
            }}
            channel={choice.channel}
            onChannel={(channel) => {
              const c = { ...choice, channel };
              setChoice(c);
              void preview(c);
            }}
            channelByFile={choice.channelByFile}
            onFileChannel={(path, channel) => {
              const { [path]: _, ...others } = choice.channelByFile;
              const c = {
                ...choice,
                channelByFile: channel === null ? others : { ...others, [path]: channel },
              };
              setChoice(c);
              void preview(c);
            }}
            insist={insist}
            onInsist={(path, v) => setInsist((s) => toggled(s, path, v))}
            borderline={borderline}
            onBorderline={(path, v) => setBorderline((s) => toggled(s, path, v))}
            onBack={() => setStep('choose')}
            onNext={() => setStep('confirm')}
            onRetry={() => void preview(choice)}
          />
        )}
        {step === 'confirm' && summary && (
          <ConfirmStep
            studyId={studyId}
            summary={summary}
            insist={insist}
            borderline={borderline}
            simulated={simulated}
            defaultLabel={`${lastSegment(choice.paths[0] ?? choice.manifestPath) || 'Import'}, ${fmtDate(new Date().toISOString())}`}
            onBack={() => setStep('preview')}
            onRepreview={() => void preview(choice)}
            onDone={(batchId) => {
              planRef.current = null;
              navigate(paths.study(studyId).batch(batchId));
            }}
          />
        )}
      </section>
    </>
  );
};

export const ImportPage = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const study = useCall('studies.get', { studyId });
  return (
    <div className="page">
      <QueryView q={study}>
        {(s) => (
          <>
            <PageHeader
              title="Import recordings"
              badge={s.simulated ? <SimulatedBadge long /> : undefined}
              subtitle={
                <>
                  Into <Link href={paths.study(studyId).overview}>{s.name}</Link>
                  {s.profileName ? (
                    <> · service {serviceName({ name: s.profileName, apiVersion: s.apiVersion })}</>
                  ) : null}
                </>
              }
            />
            {s.apiVersion ? (
              <Wizard key={studyId} studyId={studyId} version={s.apiVersion} simulated={s.simulated} />
            ) : (
              <p>
                This study has no service profile, so nothing can be imported for it. Choose one in Settings.
              </p>
            )}
          </>
        )}
      </QueryView>
    </div>
  );
};
