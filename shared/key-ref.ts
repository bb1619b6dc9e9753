/**
 * How a service profile's API key is referred to in the database (`key_ref`), never the key itself:
 * `env:NAME` (an environment variable read at run time), `key-file:<name>` (a file only the user can
 * read, in the workspace's keys folder), `safe-storage:<name>` (encrypted by the operating system's
 * keychain, through the desktop app).
 */
export const KEY_REF_SCHEMES = ['env', 'key-file', 'safe-storage'] as const;
export type KeyRefScheme = (typeof KEY_REF_SCHEMES)[number];

export const keyRefOf = (scheme: KeyRefScheme, name: string): string => `${scheme}:${name}`;

/** A reference's scheme (null when unknown, with the text before the first colon) and name. */
export const parseKeyRef = (
  keyRef: string,
): { readonly scheme: KeyRefScheme | null; readonly written: string; readonly name: string } => {
  const colon = keyRef.indexOf(':');
  const written = colon < 0 ? keyRef : keyRef.slice(0, colon);
  const name = colon < 0 ? '' : keyRef.slice(colon + 1);
  const scheme = (KEY_REF_SCHEMES as readonly string[]).includes(written) ? (written as KeyRefScheme) : null;
  return { scheme, written, name };
};
