/**
 * batches.receiptDifferences: where the service's upload receipts of a batch differ from what was sent,
 * from the workstation's own reading of the file, or from the specification — which recordings and what
 * differed, so the researcher sees them per batch. Flags of the analysis answers are not receipt
 * differences, and other batches' receipts are not listed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dqFlag } from '../../../shared/api/data-quality';
import { replaceFlags } from '../../../main/db/repos/data-quality.repo';
import { openTestHost, type TestHost } from './test-host';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy } from './seed';

let t: TestHost;
beforeEach(async () => {
  t = await openTestHost({ now: NOW });
});
afterEach(async () => {
  await t.close();
});

const batchOf = async (recordingId: number) =>
  ((await t.store.get(`SELECT batch_id FROM recordings WHERE id = ?`, [recordingId])) as { batch_id: number })
    .batch_id;

describe('batches.receiptDifferences', () => {
  it('lists each receipt difference of the batch with its recording, what was received and what was expected', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-7');
    const r = await seedRecording(t.store, s, p, {
      recordedAt: daysAgo(3),
      fileName: 'p7-week1.wav',
      session: 'week 1',
    });
    const other = await seedRecording(t.store, s, p, { recordedAt: daysAgo(2) });
    await replaceFlags(t.store, daysAgo(0), r, 'receipt_check', null, [
      dqFlag('receipt_account_differs', 'account_id', 'acc-other', 'acc-sent, the account it was sent for'),
      dqFlag(
        'receipt_sample_rate_differs',
        'metadata.sample_rate_hz',
        8000,
        '16000 Hz, as read on the workstation',
      ),
    ]);
    await replaceFlags(t.store, daysAgo(0), r, 'receipt', null, [
      dqFlag('negative_value', 'metadata.audio_size_bytes', -1, 'zero or more bytes'),
    ]);
    // Not receipt differences: an analysis answer's flag, and another batch's receipt.
    await replaceFlags(t.store, daysAgo(0), r, 'poll', 'parkinsons', [
      dqFlag('score_out_of_range', 'insights.parkinsons.score', 250, '0 to 100', ['pd_risk_score']),
    ]);
    await replaceFlags(t.store, daysAgo(0), other, 'receipt_check', null, [
      dqFlag('receipt_format_differs', 'metadata.format', 'mp3', 'wav'),
    ]);

    const list = await t.must('batches.receiptDifferences', { batchId: await batchOf(r) });
    expect(list).toEqual([
      {
        recordingId: r,
        participantCode: 'P-7',
        fileName: 'p7-week1.wav',
        session: 'week 1',
        origin: 'receipt_check',
        code: 'receipt_account_differs',
        path: 'account_id',
        received: '"acc-other"',
        expected: 'acc-sent, the account it was sent for',
      },
      expect.objectContaining({ recordingId: r, code: 'receipt_sample_rate_differs', received: '8000' }),
      expect.objectContaining({ recordingId: r, origin: 'receipt', code: 'negative_value', received: '-1' }),
    ]);
  });

  it('is empty for a batch whose receipts match, and NOT_FOUND for a batch that does not exist', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    const r = await seedRecording(t.store, s, p, { recordedAt: daysAgo(3) });
    expect(await t.must('batches.receiptDifferences', { batchId: await batchOf(r) })).toEqual([]);
    expect(await t.call('batches.receiptDifferences', { batchId: 9999 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});
