/**
 * What the window shows of a team study: the sites the member works at, and the workstations on the
 * study database (who runs each, when it was last seen, what it holds waiting and what it sends now).
 * On the study file the same reads answer too: one site (`main`) and this workstation.
 */
import { studySites, type SiteRow } from '../db/repos/sites.repo';
import { workstationActivity } from '../db/repos/workstations.repo';
import { sitesGrantedToMe } from '../db/team/members.repo';
import { DEFAULT_LEASE_SECONDS } from '../engine/runner-core';
import type { ServiceContext } from './service-context';

export interface WorkstationView {
  readonly name: string;
  readonly login: string | null;
  readonly lastSeenAt: string;
  readonly here: boolean;
  readonly waiting: number;
  readonly sending: number;
}

export interface TeamViewService {
  /** The study's sites the member works at: every site for the owner and outside a team database. */
  workSites(studyId: number): Promise<SiteRow[]>;
  /** The workstations on the study database; `here` means seen within the upload lease. */
  studyWorkstations(studyId: number): Promise<{ rows: WorkstationView[]; leaseSeconds: number }>;
}

export const teamViewService = (ctx: ServiceContext): TeamViewService => ({
  async workSites(studyId) {
    const sites = await studySites(ctx.store, studyId);
    if (ctx.member === null || ctx.member.role === 'owner') return sites;
    const granted = new Set(await sitesGrantedToMe(ctx.store, studyId));
    return sites.filter((s) => granted.has(s.code));
  },
  async studyWorkstations(studyId) {
    const leaseSeconds = ctx.options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    const rows = await workstationActivity(ctx.store, studyId, leaseSeconds);
    return {
      leaseSeconds,
      rows: rows.map((r) => ({
        name: r.name,
        login: r.login,
        lastSeenAt: r.lastSeenAt,
        here: Number(r.here) === 1,
        waiting: Number(r.waiting),
        sending: Number(r.sending),
      })),
    };
  },
});
