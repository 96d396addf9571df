/**
 * Keep-alive HTTP/1.1 connections for the benchmark's load, at as little CPU
 * per request as Node allows: each request is one socket write, and of each
 * answer only the status line and the framing (Content-Length, or chunked) are
 * read; the body is skipped.
 *
 * Why not undici (used before) or autocannon's client: on two cores the load
 * generator shares the machine with the server and PostgreSQL, and what it
 * spends is taken from them. At a steady 2,000 requests a second undici's Pool
 * cost about 140 µs of CPU per request; this client, about half that (the
 * figures are in bench/README.md). autocannon stays for the closed-loop figure,
 * and offers no open-loop client of its own.
 *
 * One request at a time per connection; requests made while every connection
 * is busy wait in a queue (their wait is part of their latency). Connections
 * open as they are first needed, up to `count`, and one that the server closes
 * is opened again for the next request.
 */
import net from 'node:net';

export type HttpRequest = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; headers: Record<string, string>; body?: string };

type Pending = { head: string; body: string; resolve: (status: number) => void; reject: (error: Error) => void };

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** Where an answer ends in `buffer`, once whole: its status and length, or null while more is to come. */
export function answerIn(buffer: Buffer): { status: number; length: number } | null {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) return null;
  const head = buffer.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  if (!head.startsWith('HTTP/1.') || !Number.isInteger(status)) throw new Error(`not an HTTP/1.x answer: ${JSON.stringify(head.slice(0, 40))}`);
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  if (length) {
    const end = headEnd + 4 + Number(length[1]);
    return buffer.length >= end ? { status, length: end } : null;
  }
  if (!/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
    // No body: 1xx, 204 and 304 answers (HEAD is never sent here).
    if (status < 200 || status === 204 || status === 304) return { status, length: headEnd + 4 };
    throw new Error('an answer framed by closing the connection (neither Content-Length nor chunked)');
  }
  // Chunks: a hexadecimal size line, the data and CRLF each, ending with a size of 0 and an empty trailer.
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd < 0) return null;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk size in a chunked answer');
    if (size === 0) {
      // The last chunk's line ends the chunks; the answer ends at the blank line after any trailer fields.
      const end = buffer.indexOf(HEAD_END, lineEnd);
      return end < 0 ? null : { status, length: end + 4 };
    }
    at = lineEnd + 2 + size + 2;
    if (buffer.length < at) return null;
  }
}

class Connection {
  private socket: net.Socket | null = null;
  private buffered: Buffer | null = null;
  current: Pending | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly onFree: (connection: Connection) => void,
  ) {}

  send(pending: Pending): void {
    this.current = pending;
    if (!this.socket) this.open();
    this.socket!.write(pending.head + pending.body);
  }

  private open(): void {
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    this.socket = socket;
    this.buffered = null;
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    const lost = (error?: Error) => {
      if (this.socket !== socket) return;
      this.socket = null;
      socket.destroy();
      const pending = this.current;
      this.current = null;
      if (pending) {
        pending.reject(error ?? new Error('the server closed the connection before answering'));
        this.onFree(this);
      }
    };
    socket.on('error', lost);
    socket.on('close', () => lost());
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    let answer: ReturnType<typeof answerIn>;
    try {
      answer = answerIn(this.buffered);
    } catch (error) {
      this.socket?.destroy(error as Error);
      return;
    }
    if (!answer) return;
    if (this.buffered.length > answer.length) {
      this.socket?.destroy(new Error('the server answered more than was asked'));
      return;
    }
    this.buffered = null;
    const pending = this.current!;
    this.current = null;
    pending.resolve(answer.status);
    this.onFree(this);
  }

  close(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    if (this.current) this.current.reject(new Error('the connections were closed'));
    this.current = null;
  }
}

export class HttpConnections {
  private readonly idle: Connection[] = [];
  private readonly all: Connection[] = [];
  private readonly queue: Pending[] = [];
  private readonly host: string;
  private readonly port: number;
  private readonly hostHeader: string;
  closed = false;

  constructor(
    base: string,
    private readonly count: number,
  ) {
    const url = new URL(base);
    if (url.protocol !== 'http:') throw new Error(`only http: is supported, not ${url.protocol}`);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
    this.hostHeader = url.host;
  }

  /** Sends the request on a free connection (or when one is free); resolves to the answer's status. */
  request(request: HttpRequest): Promise<number> {
    if (this.closed) return Promise.reject(new Error('the connections are closed'));
    return new Promise((resolve, reject) => {
      const body = request.body ?? '';
      let head = `${request.method} ${request.path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\n`;
      for (const name in request.headers) head += `${name}: ${request.headers[name]}\r\n`;
      if (body.length > 0 || request.method === 'PUT' || request.method === 'POST') head += `content-length: ${Buffer.byteLength(body)}\r\n`;
      head += '\r\n';
      const pending: Pending = { head, body, resolve, reject };
      const connection = this.idle.pop() ?? this.opened();
      if (connection) connection.send(pending);
      else this.queue.push(pending);
    });
  }

  private opened(): Connection | undefined {
    if (this.all.length >= this.count) return undefined;
    const connection = new Connection(this.host, this.port, (free) => this.freed(free));
    this.all.push(connection);
    return connection;
  }

  private freed(connection: Connection): void {
    if (this.closed) return;
    const next = this.queue.shift();
    if (next) connection.send(next);
    else this.idle.push(connection);
  }

  /** Closes every connection; requests under way or waiting fail. */
  async destroy(): Promise<void> {
    this.closed = true;
    for (const connection of this.all) connection.close();
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the connections were closed'));
  }
}
