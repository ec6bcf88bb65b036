/**
 * `<dataDir>/pglite.lock.json` records which process owns the PGlite files and on which
 * port it serves them, because PGlite files must never be opened by two processes at once.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type PgliteLock = { pid: number; socketPort: number | null };

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'pglite.lock.json');
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function readLock(dataDir: string): Promise<PgliteLock | null> {
  try {
    const parsed = JSON.parse(await readFile(lockPath(dataDir), 'utf8')) as Partial<PgliteLock>;
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, socketPort: typeof parsed.socketPort === 'number' ? parsed.socketPort : null };
  } catch {
    return null;
  }
}

/**
 * Claims the files for this process. A lock left by a process that no longer runs is
 * taken over (and reported through onStale); a live owner, this process included, is an error.
 */
export async function claimLock(dataDir: string, onStale: (stale: PgliteLock) => void): Promise<void> {
  const file = lockPath(dataDir);
  const content = JSON.stringify({ pid: process.pid, socketPort: null } satisfies PgliteLock);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, content, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const existing = await readLock(dataDir);
    if (existing && isProcessAlive(existing.pid)) {
      throw new Error(
        `The PGlite database in ${dataDir} is in use by process ${existing.pid}` +
          (existing.pid === process.pid ? ' (this process)' : '') +
          '. Stop it first, or reach the database through it with openDatabaseForTool().',
      );
    }
    if (existing) onStale(existing);
    await rm(file, { force: true });
  }
  throw new Error(`Could not claim ${file}`);
}

export async function updateLock(dataDir: string, lock: PgliteLock): Promise<void> {
  await writeFile(lockPath(dataDir), JSON.stringify(lock));
}

/** Removes the lock only while it still names this process. */
export async function releaseLock(dataDir: string): Promise<void> {
  const existing = await readLock(dataDir);
  if (existing?.pid === process.pid) await rm(lockPath(dataDir), { force: true });
}
