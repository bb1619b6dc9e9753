/**
 * What each role of a team study may do from a workstation (docs/team.md, "Everyday work by role"),
 * and the sentence that refuses the rest: it names the member's role and who can, never a database
 * error. A workstation that is not on a team database may do everything.
 */
import { describe, expect, it } from 'vitest';
import { TEAM_ROLES, type TeamRole } from '../../../shared/team';
import { allowedWork, refusalForRole, type TeamWork } from '../../../main/services/team-rights';

const MAY: Record<TeamWork, readonly TeamRole[]> = {
  import: ['owner', 'coordinator'],
  curate: ['owner', 'coordinator'],
  export: ['owner', 'analyst'],
  verifyAudit: ['owner'],
  // The workstations that send: the owner's and coordinators'; analysts and monitors never send.
  createAccounts: ['owner', 'coordinator'],
  design: ['owner'],
  profiles: ['owner'],
  deleteData: ['owner'],
};
const as = (role: TeamRole) => ({ login: `x_${role}`, role, database: 'db-5432-study' });

describe('the rights of each role', () => {
  for (const [work, roles] of Object.entries(MAY) as [TeamWork, readonly TeamRole[]][])
    it(`${work}: ${roles.join(', ')} only`, () => {
      const allowed = TEAM_ROLES.filter((r) => refusalForRole(as(r), work) === null);
      expect(allowed).toEqual(roles);
    });

  it('refuses a monitor an import in a researcher’s words, naming the role and who can', () => {
    expect(refusalForRole(as('monitor'), 'import')).toEqual({
      message: 'Your role in this study (monitor) cannot import recordings.',
      action:
        "Ask the study's owner to do it, or to give your login a role that can (an owner or coordinator).",
    });
    expect(refusalForRole(as('coordinator'), 'verifyAudit')?.action).toContain('(the owner)');
  });

  it('lets a workstation outside a team database do everything', () => {
    for (const work of Object.keys(MAY) as TeamWork[]) expect(refusalForRole(null, work)).toBeNull();
    expect(allowedWork(null)).toEqual(Object.keys(MAY));
  });

  it('tells the window the work a role allows, the same rule as the refusals', () => {
    expect(allowedWork(as('coordinator'))).toEqual(['import', 'curate', 'createAccounts']);
    expect(allowedWork(as('analyst'))).toEqual(['export']);
    expect(allowedWork(as('monitor'))).toEqual([]);
  });
});
