/**
 * Site administrators (`users.is_admin`). An administrator acts as the game
 * master of every game (the game-master tools, names in anonymous games, the
 * invite code, starting a full game) and may see every game and the site-wide
 * audit log (GET /api/admin/audit). Like a game master, an administrator never
 * sees a power's orders before the phase is processed, nor private press
 * between powers.
 *
 * Nobody becomes one through the API. Two ways, both from outside it:
 * - `ADMIN_USERS=alice,bob`: when set, it is the whole list, applied at every
 *   start-up (listed accounts are made administrators, every other account
 *   stops being one). Unknown names are logged and skipped: create the account
 *   first, or whoever registers that name next would be made one at the next start.
 * - `npx tsx server/admin.ts list | grant <username> | revoke <username>` (when
 *   ADMIN_USERS is not set; PGlite: with the server stopped, it holds the files).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { announceSessionsChanged } from '../auth/session-cache.ts';

/** Makes exactly `usernames` administrators; returns who is one now and the names with no account. */
export async function applyAdminList(db: Db, usernames: readonly string[], log?: FastifyBaseLogger) {
  const keys = [...new Set(usernames.map((name) => name.trim().toLowerCase()).filter(Boolean))];
  const demoted = await db.user.updateMany({ where: { isAdmin: true, usernameKey: { notIn: keys } }, data: { isAdmin: false } });
  const promoted = await db.user.updateMany({ where: { isAdmin: false, usernameKey: { in: keys } }, data: { isAdmin: true } });
  // Instances already running hold these users' sessions with the old flag.
  if (demoted.count + promoted.count > 0) await announceSessionsChanged(db, 'all');
  const admins = await db.user.findMany({ where: { isAdmin: true }, select: { username: true, usernameKey: true } });
  const unknown = keys.filter((key) => !admins.some((admin) => admin.usernameKey === key));
  if (unknown.length > 0) log?.warn({ unknown }, 'ADMIN_USERS names users who have no account; create them, then restart');
  log?.info({ admins: admins.map((admin) => admin.username) }, 'site administrators (ADMIN_USERS)');
  return { admins: admins.map((admin) => admin.username), unknown };
}

export async function setAdmin(db: Db, username: string, isAdmin: boolean): Promise<boolean> {
  const { count } = await db.user.updateMany({ where: { usernameKey: username.trim().toLowerCase() }, data: { isAdmin } });
  // Running servers hold this user's sessions with the old flag.
  if (count > 0) await announceSessionsChanged(db, 'all');
  return count === 1;
}

export async function listAdmins(db: Db): Promise<string[]> {
  return (await db.user.findMany({ where: { isAdmin: true }, orderBy: { usernameKey: 'asc' }, select: { username: true } })).map((user) => user.username);
}

/** The command line (server/admin.ts): `list`, `grant <username>`, `revoke <username>`. */
export async function adminCommand(db: Db, args: readonly string[], adminUsersSet: boolean): Promise<{ exitCode: number; output: string }> {
  const [command, username] = args;
  if (command === 'list' && args.length === 1) {
    const admins = await listAdmins(db);
    return { exitCode: 0, output: admins.length > 0 ? admins.join('\n') : '(no administrators)' };
  }
  if ((command === 'grant' || command === 'revoke') && username && args.length === 2) {
    if (adminUsersSet) {
      return { exitCode: 1, output: 'ADMIN_USERS is set: it is the list of administrators, applied at every start; change it instead' };
    }
    if (!(await setAdmin(db, username, command === 'grant'))) return { exitCode: 1, output: `no user named "${username}"` };
    return { exitCode: 0, output: `${username} ${command === 'grant' ? 'is now' : 'is no longer'} a site administrator` };
  }
  return { exitCode: 2, output: 'usage: npx tsx server/admin.ts list | grant <username> | revoke <username>' };
}
