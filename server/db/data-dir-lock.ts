/**
 * One process at a time on an embedded database's directory.
 *
 * PGlite takes no lock of its own: a second process that opens the same directory (a second `npm start` while one
 * runs, even one that then fails to listen on the busy port; `npm run admin` beside a running server) recovers and
 * writes it under the first one's feet, and the directory is left unopenable ("Aborted()" at the next open). So the
 * server holds a lock file beside the directory while the database is open, as PostgreSQL holds postmaster.pid.
 *
 * Hand-made rather than proper-lockfile: that library judges a lock stale by its age, refreshed on the event loop,
 * so a server killed outright would block a restart for the stale period, and a long synchronous WASM call could
 * make a live holder's lock look stale and let a second process in: the very corruption this prevents. A process id
 * tells exactly whether the holder lives, on the one machine an embedded database can be shared on.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/** The lock files this process holds: a file naming this process's id that is not among them is from an earlier life (a container's pid 1). */
const held = new Set<string>();

type Holder = { pid: number; host: string; since: string };

export class DataDirInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: Holder,
  ) {
    super(
      holder.pid === process.pid
        ? `the database directory ${lockFile.slice(0, -'.lock'.length)} is already open in this process (${lockFile})`
        : `the database directory ${lockFile.slice(0, -'.lock'.length)} is in use by another process (pid ${holder.pid}, since ${holder.since}): ` +
            'stop that server (or the admin command) first, or give this one its own DATA_DIR. ' +
            `If no such process is running, delete ${lockFile}.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** The lock file of a data directory: beside it, so the database's own files are left alone. */
export function lockFileOf(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.lock`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else; ESRCH: no such process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return null;
    return { pid: parsed.pid, host: String(parsed.host ?? ''), since: String(parsed.since ?? 'an unknown time') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    return null; // Garbled (a crash while writing it): nobody can be holding it by it.
  }
}

/**
 * Takes the data directory's lock, or throws DataDirInUseError naming the live holder. A lock left by a process that
 * is gone (killed outright, or a machine restart) is taken over. Returns the release, which removes the file only
 * while it is still this process's.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
    }
    let holder: Holder | null;
    try {
      holder = readHolder(file);
    } catch {
      continue; // Released between our write and our read: try again.
    }
    const live = holder !== null && (holder.pid === process.pid ? held.has(file) : alive(holder.pid));
    if (holder && live) throw new DataDirInUseError(file, holder);
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  held.add(file);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(file);
    process.removeListener('exit', release);
    try {
      if (readHolder(file)?.pid === process.pid) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  // A process that exits without closing the database (process.exit on a failed start) still lets go.
  process.once('exit', release);
  return release;
}
