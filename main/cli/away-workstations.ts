/** Recordings that only an away workstation can send, as `status` and `wait` say it. */
import type { AbsentHolder } from '../db/repos/workstations.repo';
import type { Output } from './output';

/** One line per away workstation that alone holds files still to be sent. */
export const sayWaitingForWorkstations = (out: Output, holders: readonly AbsentHolder[]): void => {
  for (const w of holders)
    out.say(
      'waiting-for-workstation',
      `${w.waiting} recording${w.waiting === 1 ? '' : 's'} waiting for ${w.workstation}${w.login ? ` (${w.login})` : ''}, away since ${w.lastSeenAt}: only that workstation holds ${w.waiting === 1 ? 'its file' : 'their files'}.`,
      { waitingForWorkstation: w },
    );
};
