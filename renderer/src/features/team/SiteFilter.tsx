/**
 * The site filter of a team study's lists: every site the member works at, or one. On a study of
 * one's own, or for a member of one site, there is nothing to choose and nothing is shown.
 */
import { SelectField } from '../../components/Form';
import { useCall } from '../../lib/api';
import { useInTeam } from './team-session';

export const SiteFilter = ({
  studyId,
  site,
  onChange,
}: {
  studyId: number;
  site: string | undefined;
  onChange: (site: string | undefined) => void;
}) => {
  const inTeam = useInTeam();
  const sites = useCall('team.sites', { studyId }, { enabled: inTeam });
  const list = sites.data?.sites ?? [];
  if (!inTeam || list.length < 2) return null;
  return (
    <SelectField label="Site" value={site ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">All your sites</option>
      {list.map((s) => (
        <option key={s.code} value={s.code}>
          {s.name} ({s.code})
        </option>
      ))}
    </SelectField>
  );
};
