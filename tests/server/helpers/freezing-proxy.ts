/**
 * A TCP proxy between an app and PostgreSQL that can make connections fail the
 * ways a network does: `freezeListeners()` stops forwarding, both ways, on the
 * LISTEN connections without closing them (an idle NAT mapping that expired, a
 * firewall dropping packets: nothing arrives, nothing says so), and
 * `refuseOthers()` closes the other connections and refuses new ones (the
 * database unreachable for queries). Hand-made on node:net: it must read the
 * client's bytes to tell a LISTEN connection from a pooled one, which the proxy
 * libraries (toxiproxy, an external server) do not do per connection.
 */
import net from 'node:net';

type Link = { client: net.Socket; upstream: net.Socket; listener: boolean; frozen: boolean; closed: boolean; bytesToClient: number };

export type FreezingProxy = {
  /** `databaseUrl` with this proxy's host and port. */
  url(databaseUrl: string): string;
  /** Stops forwarding on the LISTEN connections open now (later ones are forwarded); returns how many. */
  freezeListeners(): number;
  /** The LISTEN connections open and forwarded, with the bytes each has carried to the app so far. */
  liveListeners(): Array<{ bytesToClient: number }>;
  /** While on: every connection but the LISTEN ones is closed, and new ones are closed at once. */
  refuseOthers(on: boolean): void;
  close(): Promise<void>;
};

export async function startFreezingProxy(databaseUrl: string): Promise<FreezingProxy> {
  const target = new URL(databaseUrl);
  const links = new Set<Link>();
  let refusing = false;

  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    const link: Link = { client, upstream, listener: false, frozen: false, closed: false, bytesToClient: 0 };
    links.add(link);
    // The last bytes seen, so that `LISTEN "` split across two reads is still found.
    let tail = '';
    client.on('data', (data) => {
      if (!link.listener) {
        const text = tail + data.toString('latin1');
        if (text.includes('LISTEN "')) link.listener = true;
        tail = text.slice(-8);
      }
      if (!link.frozen) upstream.write(data);
    });
    upstream.on('data', (data) => {
      if (link.frozen) return;
      link.bytesToClient += data.length;
      client.write(data);
    });
    // A closed end is passed on, unless the link is frozen: then, as on a dead network, the other side never hears of it.
    const end = () => {
      link.closed = true;
      if (link.frozen) return;
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    freezeListeners() {
      let frozen = 0;
      for (const link of links) {
        if (!link.listener || link.frozen || link.closed) continue;
        link.frozen = true;
        frozen += 1;
      }
      return frozen;
    },
    liveListeners() {
      return [...links].filter((link) => link.listener && !link.frozen && !link.closed).map((link) => ({ bytesToClient: link.bytesToClient }));
    },
    refuseOthers(on) {
      refusing = on;
      if (!on) return;
      for (const link of links) if (!link.listener) link.client.destroy(), link.upstream.destroy();
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const link of links) link.client.destroy(), link.upstream.destroy();
      await closed;
    },
  };
}
