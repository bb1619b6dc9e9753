/**
 * A team study's sites by code, to show a participant's site by its name: "Clinic A (a)". Outside a
 * team study nothing is asked and null says so (the study file has one site, not worth a word).
 */
import { useMemo } from 'react';
import { useCall } from '../../lib/api';
import { useInTeam } from './team-session';

export type SiteLabel = (code: string) => string;

export const useSiteLabel = (studyId: number): SiteLabel | null => {
  const inTeam = useInTeam();
  const sites = useCall('team.sites', { studyId }, { enabled: inTeam });
  const list = sites.data?.sites;
  return useMemo(() => {
    if (!inTeam) return null;
    const names = new Map((list ?? []).map((s) => [s.code, s.name]));
    return (code: string) => {
      const name = names.get(code);
      return name ? `${name} (${code})` : code;
    };
  }, [inTeam, list]);
};
