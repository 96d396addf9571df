/**
 * The server's VAPID keys (RFC 8292): browsers subscribe with the public key, and every push message is signed with
 * the private one, so the keys must outlive restarts (new keys orphan every subscription: push services refuse the
 * messages). From VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set (needed when several instances share a database but
 * not a DATA_DIR); otherwise made once and kept in `<DATA_DIR>/vapid.json`.
 */
import { createECDH } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

export type VapidKeys = {
  /** Uncompressed P-256 point, base64url (65 bytes). */
  publicKey: string;
  /** The private scalar, base64url (32 bytes). */
  privateKey: string;
  /** Who runs the server, for push services to contact (`https:` or `mailto:`), in every signature. */
  subject: string;
};

export type VapidSource = 'environment' | 'file' | 'generated';

/** A subject push services accept (web-push insists on https: or mailto:): PUBLIC_URL when it is https, else a mailto: at its host. */
export function defaultVapidSubject(publicUrl: string): string {
  const url = new URL(publicUrl);
  return url.protocol === 'https:' ? url.origin : `mailto:webmaster@${url.hostname}`;
}

/** Why a key pair is unusable, or null: each must decode to a P-256 key, and the public one must be the private one's. */
export function vapidKeyProblem(publicKey: string, privateKey: string): string | null {
  const publicBytes = Buffer.from(publicKey, 'base64url');
  const privateBytes = Buffer.from(privateKey, 'base64url');
  if (publicBytes.length !== 65 || publicBytes[0] !== 4) return 'VAPID_PUBLIC_KEY must be an uncompressed P-256 point (65 bytes), base64url';
  if (privateBytes.length !== 32) return 'VAPID_PRIVATE_KEY must be a P-256 private key (32 bytes), base64url';
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(privateBytes);
  } catch {
    return 'VAPID_PRIVATE_KEY is not a valid P-256 private key';
  }
  if (!ecdh.getPublicKey().equals(publicBytes)) return 'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY';
  return null;
}

/** New keys, for a first start or a test. */
export function generateVapidKeys(subject: string): VapidKeys {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { publicKey, privateKey, subject };
}

type VapidEnvironment = { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string; DATA_DIR: string; PUBLIC_URL: string };

/**
 * The keys to run with: the environment's, else `<DATA_DIR>/vapid.json`'s, else new ones written there (readable by
 * the server's user only). Throws, naming the variable or the file, when what is there cannot be used.
 */
export function loadVapidKeys(env: VapidEnvironment): { keys: VapidKeys; source: VapidSource; file: string | null } {
  const subject = env.VAPID_SUBJECT ?? defaultVapidSubject(env.PUBLIC_URL);
  if (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY) {
    if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
    const problem = vapidKeyProblem(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY);
    if (problem) throw new Error(problem);
    return { keys: { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject }, source: 'environment', file: null };
  }
  const file = path.join(env.DATA_DIR, 'vapid.json');
  let stored: string | null = null;
  try {
    stored = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (stored !== null) {
    const parsed = JSON.parse(stored) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string') throw new Error(`${file}: expected { "publicKey", "privateKey" }`);
    const problem = vapidKeyProblem(parsed.publicKey, parsed.privateKey);
    if (problem) throw new Error(`${file}: ${problem.replace(/VAPID_(PUBLIC|PRIVATE)_KEY/g, (_, which: string) => `${which.toLowerCase()}Key`)}`);
    return { keys: { publicKey: parsed.publicKey, privateKey: parsed.privateKey, subject }, source: 'file', file };
  }
  const keys = generateVapidKeys(subject);
  mkdirSync(env.DATA_DIR, { recursive: true });
  // Written beside, then renamed: a crash never leaves half a file that would stop the next start.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, file);
  return { keys, source: 'generated', file };
}

const perProcess = new WeakMap<object, VapidKeys>();

/**
 * The keys an app runs with: its settings' (main.ts loads them as above), or, when a test or tool builds an app
 * without any, keys made for that app alone, the same for its routes and its transport.
 */
export function vapidKeysOf(push: { vapid: VapidKeys | null }, publicUrl: string): VapidKeys {
  if (push.vapid) return push.vapid;
  let keys = perProcess.get(push);
  if (!keys) {
    keys = generateVapidKeys(defaultVapidSubject(publicUrl));
    perProcess.set(push, keys);
  }
  return keys;
}
