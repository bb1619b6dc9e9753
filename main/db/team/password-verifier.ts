/**
 * A PostgreSQL SCRAM-SHA-256 password verifier (RFC 5802 and RFC 7677, in the form PostgreSQL's
 * documentation gives for `pg_authid.rolpassword`): `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`.
 * `CREATE ROLE … PASSWORD` given a verifier stores it as it is, so the password itself never reaches
 * the server's statement log. Passwords are taken as their UTF-8 bytes (no SASLprep normalisation).
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

const ITERATIONS = 4096;

const hmac = (key: Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();

export const scramVerifier = (password: string, salt: Buffer = randomBytes(16)): string => {
  const salted = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, ITERATIONS, 32, 'sha256');
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
};
