import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerIn, HttpConnections } from '../../bench/http-connections.ts';

let close: (() => void) | undefined;
afterEach(() => close?.());

async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const connections = new HttpConnections(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 2);
  close = () => {
    void connections.destroy();
    server.close();
  };
  return connections;
}

describe("the benchmark's HTTP client", () => {
  it('reads answers framed by length, by chunks, and without a body, and sends the body it is given', async () => {
    const bodies: string[] = [];
    const connections = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        bodies.push(body);
        if (request.url === '/chunked') {
          response.write('one,');
          setTimeout(() => response.end('two'), 5);
        } else if (request.url === '/empty') {
          response.statusCode = 204;
          response.end();
        } else response.end('whole');
      });
    });
    const statuses = [];
    for (const path of ['/length', '/chunked', '/empty', '/length', '/chunked']) {
      statuses.push(await connections.request({ method: 'PUT', path, headers: { 'content-type': 'text/plain' }, body: `to ${path}` }));
    }
    expect(statuses).toEqual([200, 200, 204, 200, 200]);
    expect(bodies).toEqual(['to /length', 'to /chunked', 'to /empty', 'to /length', 'to /chunked']);
  });

  it('fails the request whose connection the server closes, and opens a new one for the next', async () => {
    let served = 0;
    const connections = await serve((request, response) => {
      if (served++ === 0) request.socket.destroy();
      else response.end('ok');
    });
    await expect(connections.request({ method: 'GET', path: '/', headers: {} })).rejects.toThrow(/closed the connection|ECONNRESET|socket hang up/);
    expect(await connections.request({ method: 'GET', path: '/', headers: {} })).toBe(200);
  });

  it('waits for the whole answer, and says what it cannot read', () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n';
    expect(answerIn(Buffer.from(`${head}abc`))).toBeNull();
    expect(answerIn(Buffer.from(`${head}abcde`))).toEqual({ status: 200, length: head.length + 5 });
    const chunked = 'HTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n';
    expect(answerIn(Buffer.from(chunked.slice(0, -2)))).toBeNull();
    expect(answerIn(Buffer.from(chunked))).toEqual({ status: 201, length: chunked.length });
    expect(() => answerIn(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(/not an HTTP/);
    expect(() => answerIn(Buffer.from('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nabc'))).toThrow(/closing the connection/);
  });
});
