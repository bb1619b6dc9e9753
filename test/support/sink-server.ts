/**
 * A minimal upload sink for memory and throughput measurements, run as its own process so that its
 * memory is not counted against the client. It streams the body, decodes the Base64 audio
 * incrementally, hashes it, and answers a valid v1.3 Recording with the hash in `X-Audio-Sha256`.
 * Prints `SINK_READY <url>` on stdout, then `RECEIVED <sha256> <audio bytes>` for every upload.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const MARK = Buffer.from('"audio":"');

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        trial_remaining: 0,
        trial_granted: 0,
        included_remaining: 100,
        included_granted: 100,
        purchased_remaining: 0,
      }),
    );
    return;
  }
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  let inAudio = false;
  let pending = '';
  let audioBytes = 0;
  let total = 0;
  const feed = (s: string) => {
    const end = s.indexOf('"');
    const part = pending + (end >= 0 ? s.slice(0, end) : s);
    const whole = part.length - (part.length % 4);
    const decoded = Buffer.from(part.slice(0, whole), 'base64');
    audioBytes += decoded.length;
    hash.update(decoded);
    pending = part.slice(whole);
    if (end >= 0) {
      const tail = Buffer.from(pending, 'base64');
      audioBytes += tail.length;
      hash.update(tail);
      pending = '';
      inAudio = false;
    }
  };
  req.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (inAudio) return feed(chunk.toString('latin1'));
    head = Buffer.concat([head, chunk]);
    const at = head.indexOf(MARK);
    if (at >= 0) {
      inAudio = true;
      const rest = head.subarray(at + MARK.length).toString('latin1');
      head = Buffer.alloc(0);
      feed(rest);
    }
  });
  req.on('end', () => {
    const digest = hash.digest('hex');
    process.stdout.write(`RECEIVED ${digest} ${audioBytes}\n`);
    const id = '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f';
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'X-Audio-Sha256': digest,
      'X-Body-Bytes': String(total),
    });
    res.end(
      JSON.stringify({
        recording_id: id,
        account_id: id,
        recorded_at: '2026-01-01T00:00:00Z',
        uploaded_at: new Date().toISOString(),
        audio_file_format: 'wav',
        audio_size_bytes: audioBytes,
        audio_sample_rate_hz: 16000,
        audio_bit_rate_bps: 256000,
        audio_duration_seconds: 1,
        speech_duration_seconds: 1,
      }),
    );
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`SINK_READY http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
