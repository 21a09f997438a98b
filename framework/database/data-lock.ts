import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { TrellisError } from '../framework-error';

/** How long an empty lock file counts as being written by a live opener (between its creation and its pid). */
const FRESH_MS = 5_000;

/**
 * Holds the embedded database's folder for this process: the file `<dataDir>.lock` beside it, created with
 * O_EXCL, holding the owner's pid (PGlite takes no lock of its own, and two processes writing one folder lose
 * rows). A lock whose pid is no longer running is stale and taken over; a live one refuses with
 * `TRELLIS_ERR_DATABASE_LOCKED`, before anything opens the folder. {@link DataLock.release} removes the file
 * (only while it still holds this process's pid).
 */
export class DataLock {
  private constructor(
    readonly file: string,
    private readonly pid: number,
  ) {}

  /** Takes the lock of `dataDir`, or throws `TRELLIS_ERR_DATABASE_LOCKED` naming the folder and the holder's pid. */
  static acquire(dataDir: string, pid = process.pid): DataLock {
    const file = `${dataDir}.lock`;
    mkdirSync(dirname(file), { recursive: true });
    for (;;) {
      if (create(file, pid)) return new DataLock(file, pid);
      const holder = readHolder(file);
      if (holder === 'gone') continue;
      if (holder === 'unknown' || alive(holder)) {
        throw new TrellisError('TRELLIS_ERR_DATABASE_LOCKED', dataDir, holder === 'unknown' ? 'unknown' : holder, file);
      }
      // Stale: its owner died without closing. Take it over only if it still names that dead pid (another
      // process may have taken it over meanwhile); then race for a fresh one like any opener.
      if (readHolder(file) === holder) removeQuietly(file);
    }
  }

  release(): void {
    if (readHolder(this.file) === this.pid) removeQuietly(this.file);
  }
}

function create(file: string, pid: number): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The pid a lock file holds; 'gone' when there is no file; 'unknown' when it is empty and fresh (being written). */
function readHolder(file: string): number | 'gone' | 'unknown' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  const pid = Number(text.trim());
  if (Number.isSafeInteger(pid) && pid > 0) return pid;
  try {
    return Date.now() - statSync(file).mtimeMs < FRESH_MS ? 'unknown' : 0;
  } catch {
    return 'gone';
  }
}

/** Whether a process `pid` runs (pid 0 stands for an unreadable, old lock: dead). */
function alive(pid: number): boolean {
  if (pid === 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
