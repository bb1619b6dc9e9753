/**
 * participant_accounts.csv: the only file linking participant codes to service accounts.
 */
import { col } from '../column';
import { type LinkCtx } from './contexts';
import { type ExportFile, file } from './file';

export const LINK_FILE = 'participant_accounts.csv';

export const linkFile = (tz: string): ExportFile<LinkCtx> =>
  file(
    LINK_FILE,
    'link',
    'Participant to service account',
    'one participant',
    "The only file that links participant codes to the service's account ids. Written only because it was asked for; keep it apart from the data if the codes are pseudonyms.",
    ['participant'],
    [
      col<LinkCtx>('participant', 'string', 'Participant', "The participant's code.", (c) => c.participant, {
        required: true,
        neutralised: true,
      }),
      col<LinkCtx>(
        'account_id',
        'string',
        'Service account id',
        "The service's account_id of this participant (UUID); empty if none was created.",
        (c) => c.accountId,
      ),
      col<LinkCtx>(
        'account_created_at_utc',
        'datetime',
        'Account created at (UTC)',
        'When the workstation created the account.',
        (c) => c.createdUtc,
        { timeFormat: 'utc' },
      ),
      col<LinkCtx>(
        'account_created_at_local',
        'datetime',
        `Account created at (${tz})`,
        `When the workstation created the account, in ${tz}.`,
        (c) => c.created?.local,
        { timeFormat: 'local' },
      ),
    ],
    false,
  );
