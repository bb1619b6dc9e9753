/**
 * The import's confirm step on a team study: the site its new participants are put at. The member's
 * sites (team.sites: every site for the owner), the one preselected when there is one; with several,
 * the import waits for a choice. Nothing is asked on a study of one's own, nor without new participants.
 */
import { useState } from 'react';
import { ErrorNotice } from '../../components/Feedback';
import { SelectField } from '../../components/Form';
import { useCall } from '../../lib/api';
import { agree, plural } from '../../lib/format';
import { useInTeam } from '../team/team-session';
import { presetSite } from './confirm-plan';

export interface ImportSiteChoice {
  /** Whether the import asks for a site at all. */
  readonly asked: boolean;
  readonly sites: readonly { code: string; name: string }[];
  /** The site chosen, or preselected; undefined when none is (yet). */
  readonly site: string | undefined;
  setSite(code: string | undefined): void;
  /** Waiting for the member's sites, or for a choice among several (none granted: the commit's refusal says why). */
  readonly missing: boolean;
  readonly problem: ReturnType<typeof useCall<'team.sites'>>['error'];
  retry(): void;
}

export const useImportSite = (studyId: number, newCount: number): ImportSiteChoice => {
  const asked = useInTeam() && newCount > 0;
  const q = useCall('team.sites', { studyId }, { enabled: asked });
  const sites = q.data?.sites ?? [];
  const [chosen, setSite] = useState<string | undefined>(undefined);
  const site = asked ? (chosen ?? presetSite(sites)) : undefined;
  return {
    asked,
    sites,
    site,
    setSite,
    missing: asked && site === undefined && (!q.data || sites.length > 1),
    problem: q.error,
    retry: () => void q.refetch(),
  };
};

export const SiteChoice = ({ choice, newCount }: { choice: ImportSiteChoice; newCount: number }) => {
  if (!choice.asked) return null;
  if (choice.problem)
    return (
      <ErrorNotice
        error={choice.problem.appError}
        title="Your sites could not be read"
        onRetry={choice.retry}
      />
    );
  if (choice.sites.length === 0) return null;
  return (
    <section aria-labelledby="site-h" className="subsection">
      <h3 id="site-h">Site</h3>
      <SelectField
        label="Site of new participants"
        value={choice.site ?? ''}
        required
        onChange={(e) => choice.setSite(e.target.value || undefined)}
        hint={`The ${plural(newCount, 'new participant')} of this import ${agree(newCount, 'is', 'are')} put at this site; participants already in the study keep theirs.`}
      >
        {choice.sites.length > 1 && <option value="">Choose a site…</option>}
        {choice.sites.map((s) => (
          <option key={s.code} value={s.code}>
            {s.name} ({s.code})
          </option>
        ))}
      </SelectField>
    </section>
  );
};
