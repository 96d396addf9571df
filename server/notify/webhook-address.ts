/**
 * Which addresses a webhook may call. A game master chooses the URL, so the server must not become their way into
 * its own network: https only, never an address of the machine itself, of a private or link-local network (cloud
 * metadata at 169.254.169.254), nor a reserved one. The URL is checked when it is saved; the addresses its name
 * resolves to are checked again at every call, on the connection's own lookup (a name that resolved to a public
 * address when saved may point inward later). Tests (and a developer with a receiver on their own machine) may allow
 * plain http to the loopback address: `settings.webhooks.allowLoopback`.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Networks no webhook may reach (besides loopback), with the reason given to the game master. */
const refused: Array<{ list: BlockList; why: string }> = [];
function ranges(why: string, v4: Array<[string, number]>, v6: Array<[string, number]> = []) {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  refused.push({ list, why });
}
ranges(
  'a private network address',
  [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
  ],
  [['fc00::', 7]],
);
ranges('a link-local address', [['169.254.0.0', 16]], [['fe80::', 10]]);
ranges(
  'a reserved or non-routable address',
  [
    ['0.0.0.0', 8],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  [
    ['::', 128],
    ['100::', 64],
    ['2001:db8::', 32],
    ['ff00::', 8],
    // NAT64 and 6to4 carry an IPv4 address inside: they could reach any of the above.
    ['64:ff9b::', 96],
    ['2002::', 16],
  ],
);

/** What is wrong with calling this IP address, or null. IPv4 written as IPv6 (::ffff:a.b.c.d) is judged as IPv4. */
export function addressProblem(address: string, allowLoopback: boolean): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (loopback.check(ip, family)) return allowLoopback ? null : 'an address of the server itself (loopback)';
  for (const { list, why } of refused) if (list.check(ip, family)) return why;
  return null;
}

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * What is wrong with a webhook URL, in words for the game master, or null. Names are not resolved here (that is
 * done at each call): only what the URL itself says.
 */
export function webhookUrlProblem(text: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL (it should look like https://discord.com/api/webhooks/…)';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  // IPv6 literals keep their brackets in `hostname`.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = isIP(host) !== 0;
  const isLoopback = literal ? loopback.check(host, isIP(host) === 6 ? 'ipv6' : 'ipv4') : isLoopbackName(host);
  if (url.protocol === 'http:') {
    if (allowLoopback && isLoopback) return null;
    return allowLoopback ? 'must use https (plain http only to this machine: 127.0.0.1 or localhost)' : 'must use https';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (isLoopback) return allowLoopback ? null : 'must not point at the server itself (localhost)';
  if (literal) {
    const problem = addressProblem(host, allowLoopback);
    if (problem) return `must not point at ${problem} (${host})`;
  }
  return null;
}

/** The target was refused by the address rules when the connection looked it up: not worth retrying as it is. */
export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves the name and refuses it when any of its addresses is one a webhook
 * may not reach: the connection then goes only to an address that was checked (no second lookup to race).
 */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const entry of addresses) {
        const problem = addressProblem(entry.address, allowLoopback);
        if (problem) return callback(new RefusedAddress(`${hostname} resolves to ${entry.address}, ${problem}`), []);
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
