/** Words a researcher uses: counts, curation and audit lines, badges and service names. */
import { describe, expect, it } from 'vitest';
import { CHANGE_VERDICT_LABEL } from '../../../shared/change';
import { auditDetail } from '../../../renderer/src/features/privacy/audit-labels';
import { verdictAddsToAction } from '../../../renderer/src/features/import/import-labels';
import { agree, theCount } from '../../../renderer/src/lib/format';
import { changeText } from '../../../renderer/src/components/timeline-sentences';
import { CHART_MEASURES } from '../../../shared/timeline-measures';
import { baselineRuleText } from '../../../shared/baseline';
import { curationActText, serviceName } from '../../../renderer/src/lib/labels';

describe('counts in words', () => {
  it('say "the first session", never "the first 1 session"', () => {
    expect(theCount(1, 'session', { first: true })).toBe('the first session');
    expect(theCount(3, 'session', { first: true })).toBe('the first 3 sessions');
    expect(`Show ${theCount(1, 'file')} that ${agree(1, 'needs', 'need')} you`).toBe(
      'Show the file that needs you',
    );
    expect(`Show ${theCount(2, 'file')} that ${agree(2, 'needs', 'need')} you`).toBe(
      'Show the 2 files that need you',
    );
  });
  it('name no k and no "act" numbers', () => {
    expect(CHANGE_VERDICT_LABEL.no_baseline_yet).not.toMatch(/\bk\b/);
    const acts = [{ id: 1, act: 'exclude' as const, at: '2026-01-06T09:30:00Z' }];
    expect(curationActText({ act: 'undo', undoes: 1 }, acts)).toMatch(
      /^Undid “Excluded from analysis” of 2026-01-06/,
    );
    const line = auditDetail({
      id: 3,
      at: '2026-01-06T09:30:00Z',
      kind: 'curation_undone',
      profileId: null,
      studyId: 1,
      subject: 'Pilot',
      detail: { act: 3, undoes: 1, who: 'root' },
    });
    expect(line).not.toMatch(/\bact \d/);
    expect(line).toBe("undoes an earlier curation step · by this computer's user “root”");
  });
});

describe('badges and names said once', () => {
  it('a refused file is "Refused" once, with its verdict only where it adds something', () => {
    expect(verdictAddsToAction('refused', 'refused')).toBe(false);
    expect(verdictAddsToAction('borderline', 'borderline')).toBe(false);
    expect(verdictAddsToAction('upload', 'accepted_with_warnings')).toBe(true);
  });
  it('the sandbox profile: its version and "simulated" once each', () => {
    const name = 'Built-in sandbox v1.3 (simulated)';
    expect(serviceName({ name, apiVersion: 'v1.3', simulated: true })).toBe(name);
    expect(serviceName({ name: 'Lab account', apiVersion: 'v1.2' })).toBe('Lab account (API v1.2)');
  });
});

/** HNR's change in words when it cannot be put in SDs: `sdParticipant` 0 (no variation) or null (one session). */
const unscaledHnrChange = (change: number, sdParticipant: number | null): string =>
  changeText(
    CHART_MEASURES.find((m) => m.key === 'pd_hnr')!,
    {
      verdict: 'no_cohort_sd',
      change,
      sdParticipant,
      sdCohortWithin: null,
      sdUsed: null,
      sdSource: null,
      changeInSd: null,
      reliability: null,
      reliabilitySource: null,
      rciSd: null,
      sDiff: null,
      rci: null,
      trendPerWeek: null,
    },
  );

describe('change and baseline in words', () => {
  it('a change with no spread to scale by says why it is not in SDs, without "SD-scaled" or "usable SD"', () => {
    const text = unscaledHnrChange(2, 0);
    expect(text).not.toMatch(/SD-scaled|usable SD/);
    expect(text).toContain('not in SDs: the baseline’s values do not vary');
  });
  it('a baseline of one session (a schedule with one visit before its first follow-up) says so, not that its values do not vary', () => {
    const text = unscaledHnrChange(-1, null);
    expect(text).toContain('not in SDs: a baseline of one session has no spread to scale by');
    expect(text).not.toContain('do not vary');
  });
  it('the baseline says where it comes from: the schedule, the study or the default', () => {
    expect(baselineRuleText({ sessions: 1, source: 'schedule', firstFollowUp: 'Week 1' })).toBe(
      'the session before Week 1 (from the schedule)',
    );
    expect(baselineRuleText({ sessions: 2, source: 'schedule', firstFollowUp: 'Week 4' })).toBe(
      'the 2 sessions before Week 4 (from the schedule)',
    );
    expect(baselineRuleText({ sessions: 1, source: 'study', firstFollowUp: null })).toBe(
      'the first session (set for this study)',
    );
    expect(baselineRuleText({ sessions: 3, source: 'default', firstFollowUp: null })).toBe(
      'the first 3 sessions (the default)',
    );
  });
});
