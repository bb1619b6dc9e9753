/**
 * The member's session as the window uses it: whether a kind of work is allowed (the server's
 * policies are the real guard; the window only spares the click). Until the session is known,
 * everything shows, as on a study of one's own.
 */
import type { TeamWork } from '../../../../shared/team';
import { useCall } from '../../lib/api';

export const useTeamSession = () => useCall('team.session', {});

/** Whether the member's role allows `work` (true on a study of one's own). */
export const useMay = (work: TeamWork): boolean => {
  const session = useTeamSession();
  return session.data ? session.data.allowed.includes(work) : true;
};

/** True on a team study. */
export const useInTeam = (): boolean => useTeamSession().data?.database === 'team';
