import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local data folder holds mail with live links, the table with `whsec_` secrets and provider
 * keys, queued events and the local keys: its folders are 0700 and its files 0600, so no other
 * user of the machine reads any of it.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The umask a child writing into the folder runs under (DynamoDB Local): no bits for others. */
const PRIVATE_UMASK = 0o077;

/** Creates `dir` owner-only, or tightens it and everything in it when it exists with wider modes. */
export function preparePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir);
}

/** Drops the group and other bits (a folder from before this rule, files added by hand). */
function tighten(path: string): void {
  const stat = lstatSync(path);
  // A link is not followed: what it points to is not the folder's to change.
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
  if (stat.isDirectory()) for (const name of readdirSync(path)) tighten(join(path, name));
}

/**
 * Starts a child process whose files are owner-only whatever it asks for: the umask is inherited
 * at spawn, which is synchronous, so it is the process's for that moment only.
 */
export function spawnPrivately<T>(spawn: () => T): T {
  const previous = process.umask(PRIVATE_UMASK);
  try {
    return spawn();
  } finally {
    process.umask(previous);
  }
}
