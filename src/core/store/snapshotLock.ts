import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from './processAlive';

/**
 * One snapshot writer at a time per store folder. The lock file names its owner (host, pid, time); a
 * lock whose owner died (same host, pid gone) or that is older than `staleAfterMs` is broken.
 */
export interface SnapshotLockOwner {
  readonly host: string;
  readonly pid: number;
  readonly at: string;
}

export const lockFileName = 'snapshot.lock';

export function tryAcquireSnapshotLock(storeFolder: string, staleAfterMs = 10 * 60_000, now = new Date()): (() => void) | undefined {
  const path = join(storeFolder, lockFileName);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      const owner: SnapshotLockOwner = { host: hostname(), pid: process.pid, at: now.toISOString() };
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      return () => releaseIfOurs(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!isStale(path, staleAfterMs, now)) return undefined;
      try {
        unlinkSync(path);
      } catch {
        // Someone else broke it first; try once more.
      }
    }
  }
  return undefined;
}

function isStale(path: string, staleAfterMs: number, now: Date): boolean {
  let owner: Partial<SnapshotLockOwner>;
  try {
    owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<SnapshotLockOwner>;
  } catch {
    // Unreadable: a crash between create and write. Judge by the file's age alone.
    try {
      return now.getTime() - statSync(path).mtimeMs > 5_000;
    } catch {
      return true;
    }
  }
  if (owner.host === hostname() && typeof owner.pid === 'number' && !isProcessAlive(owner.pid)) return true;
  const at = typeof owner.at === 'string' ? Date.parse(owner.at) : NaN;
  return Number.isNaN(at) || now.getTime() - at > staleAfterMs;
}

/** Removes the store's lock if this process holds it (a snapshot cut short by a signal must not leave it behind). */
export function releaseSnapshotLockIfOurs(storeFolder: string): void {
  releaseIfOurs(join(storeFolder, lockFileName));
}

function releaseIfOurs(path: string): void {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<SnapshotLockOwner>;
    if (owner.pid === process.pid && owner.host === hostname()) unlinkSync(path);
  } catch {
    // Already gone or broken by someone who judged it stale.
  }
}
