/**
 * A push service of our own for the tests, doing what a browser's push service and the browser do together:
 * it takes Web Push requests (RFC 8030) on `POST /push/<id>`, checks the VAPID authorization (RFC 8292: a JWT signed
 * ES256 with the key named in the header, for this service's origin, not expired nor valid for more than a day),
 * and decrypts the aes128gcm body (RFC 8188/8291) with the subscription's private key and auth secret, made here
 * with node:crypto as a browser makes its own. A request that fails a check is refused as a push service would
 * (401/403/400) and recorded as such; the tests choose the answer to a good one (201 by default, or 410, 500, …).
 */
import { createECDH, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

type Ece = { decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer };
const ece = createRequire(import.meta.url)('http_ece') as Ece;

/** What a browser's `PushSubscription.toJSON()` gives, plus the private half the browser keeps. */
export type BrowserSubscription = {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  privateKey: ECDH;
  authSecret: Buffer;
  /** The applicationServerKey it was made with, as a push service remembers it (null: any). */
  vapidKey: string | null;
};

export type VapidClaims = { aud: string; exp: number; sub: string };

/** A message that passed every check and was decrypted. */
export type ReceivedPush = {
  subscriptionId: string;
  /** The VAPID public key the message was signed with (the `k` of the Authorization header). */
  vapidKey: string;
  claims: VapidClaims;
  /** The decrypted body, parsed. */
  payload: unknown;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  /** What the service answered. */
  status: number;
};

export type RefusedPush = { subscriptionId: string; status: number; reason: string };

export type PushService = {
  /** `http://127.0.0.1:<port>`, the audience the VAPID JWT must name. */
  origin: string;
  /** A new browser's subscription at this service, made with the server's VAPID key (messages signed by another are 403). */
  subscribe(vapidKey?: string): BrowserSubscription;
  /** What this service answers to the next good requests for a subscription (in turn; the last one stays). */
  answer(subscriptionId: string, ...statuses: number[]): void;
  received: ReceivedPush[];
  refused: RefusedPush[];
  close(): Promise<void>;
};

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** The public key of an uncompressed P-256 point. */
function p256Key(point: Buffer) {
  if (point.length !== 65 || point[0] !== 4) throw new Error('not an uncompressed P-256 point');
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) }, format: 'jwk' });
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>`; returns the key and claims, or why it is refused. */
export function checkVapid(header: string | undefined, origin: string, nowSeconds = Date.now() / 1000): { key: string; claims: VapidClaims } | string {
  const match = /^vapid\s+(.*)$/i.exec(header ?? '');
  if (!match) return 'no "Authorization: vapid t=…, k=…" header';
  const params = Object.fromEntries(
    match[1]!.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const { t: jwt, k: key } = params as { t?: string; k?: string };
  if (!jwt || !key) return 'the vapid header lacks t= or k=';
  const [head, body, signature] = jwt.split('.');
  if (!head || !body || !signature) return 'the JWT is not three parts';
  const jose = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string; typ?: string };
  if (jose.alg !== 'ES256') return `the JWT's alg is ${jose.alg}, not ES256`;
  let publicKey: ReturnType<typeof p256Key>;
  try {
    publicKey = p256Key(Buffer.from(key, 'base64url'));
  } catch {
    return 'k= is not a P-256 public key';
  }
  const valid = verify('sha256', Buffer.from(`${head}.${body}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) return 'the JWT signature does not verify with k=';
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as VapidClaims;
  if (claims.aud !== origin) return `the JWT's audience is ${claims.aud}, not ${origin}`;
  if (!(claims.exp > nowSeconds)) return 'the JWT has expired';
  if (claims.exp > nowSeconds + 24 * 3600 + 60) return 'the JWT is valid for more than 24 hours';
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) return `the JWT's subject ${claims.sub} is not a mailto: or https: URL`;
  return { key, claims };
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startPushService(): Promise<PushService> {
  const subscriptions = new Map<string, BrowserSubscription>();
  const answers = new Map<string, number[]>();
  const received: ReceivedPush[] = [];
  const refused: RefusedPush[] = [];
  let origin = '';

  const server = createServer(async (request, response) => {
    const reply = (status: number, text = '') => response.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const body = await bodyOf(request);
    const refuse = (status: number, reason: string) => {
      refused.push({ subscriptionId: id, status, reason });
      reply(status, reason);
    };
    const subscription = subscriptions.get(id);
    if (request.method !== 'POST' || !subscription) return refuse(404, 'no such subscription');
    const vapid = checkVapid(request.headers.authorization, origin);
    if (typeof vapid === 'string') return refuse(401, vapid);
    if (subscription.vapidKey !== null && vapid.key !== subscription.vapidKey) return refuse(403, 'the subscription was made with another VAPID key');
    if (request.headers['content-encoding'] !== 'aes128gcm') return refuse(415, `content-encoding ${request.headers['content-encoding']}`);
    const ttl = Number(request.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, 'no TTL header');
    let payload: unknown;
    try {
      payload = JSON.parse(
        ece.decrypt(body, { version: 'aes128gcm', privateKey: subscription.privateKey, authSecret: subscription.authSecret }).toString('utf8'),
      );
    } catch (error) {
      return refuse(400, `cannot decrypt: ${(error as Error).message}`);
    }
    const queue = answers.get(id) ?? [];
    const status = queue.length > 1 ? queue.shift()! : (queue[0] ?? 201);
    received.push({
      subscriptionId: id,
      vapidKey: vapid.key,
      claims: vapid.claims,
      payload,
      ttl,
      urgency: (request.headers.urgency as string | undefined) ?? null,
      topic: (request.headers.topic as string | undefined) ?? null,
      status,
    });
    reply(status, status >= 400 ? 'chosen by the test' : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    subscribe(vapidKey) {
      // As a browser does: a P-256 key pair and 16 random bytes for the auth secret.
      const privateKey = createECDH('prime256v1');
      privateKey.generateKeys();
      const authSecret = randomBytes(16);
      const id = randomUUID();
      const subscription = {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: b64url(privateKey.getPublicKey()), auth: b64url(authSecret) },
        privateKey,
        authSecret,
        vapidKey: vapidKey ?? null,
      };
      subscriptions.set(id, subscription);
      return subscription;
    },
    answer(subscriptionId, ...statuses) {
      answers.set(subscriptionId, statuses);
    },
    received,
    refused,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
