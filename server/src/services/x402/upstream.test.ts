import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@purser/core';
import { fetchUpstream, UPSTREAM_PRIVATE_ADDRESS_MESSAGE } from './upstream';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const seen: Seen[] = [];
let server: http.Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (request.url === '/redirect') {
        response.writeHead(302, { location: `${base}/elsewhere` }).end();
      } else if (request.url === '/silent') {
        // Never answers.
      } else if (request.url === '/huge') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        for (let i = 0; i < 32; i += 1) response.write(chunk);
        response.end();
      } else {
        response.setHeader('x-echo-method', request.method ?? '');
        response.setHeader('set-cookie', ['a=1', 'b=2']);
        response.writeHead(201, { 'Content-Type': 'text/plain' }).end(`got ${Buffer.concat(chunks).toString('utf8')}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

const local = { allowPrivateUrls: true };

describe('fetchUpstream', () => {
  it('sends a GET and returns status, lower-cased joined headers and body', async () => {
    const response = await fetchUpstream({ url: `${base}/thing?x=1`, headers: { Accept: 'text/plain', 'X-Custom': 'yes' } }, local);
    expect(response.status).toBe(201);
    expect(response.url).toBe(`${base}/thing?x=1`);
    expect(response.headers['content-type']).toBe('text/plain');
    expect(response.headers['x-echo-method']).toBe('GET');
    expect(response.headers['set-cookie']).toBe('a=1, b=2');
    expect(response.body.toString('utf8')).toBe('got ');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/thing?x=1', headers: { accept: 'text/plain', 'x-custom': 'yes' } });
  });

  it('sends a POST body with its own content length and drops hop-by-hop headers', async () => {
    const response = await fetchUpstream(
      {
        url: `${base}/post`,
        method: 'post',
        headers: { 'content-type': 'application/json', Host: 'evil.example', 'Content-Length': '999', Connection: 'x-hop', 'x-hop': 'secret', 'Transfer-Encoding': 'chunked' },
        body: '{"é":1}',
      },
      local,
    );
    expect(response.status).toBe(201);
    expect(response.body.toString('utf8')).toBe('got {"é":1}');
    const headers = seen[0]!.headers;
    expect(seen[0]!.method).toBe('POST');
    expect(headers.host).toBe(`127.0.0.1:${port}`);
    expect(headers['content-length']).toBe(String(Buffer.byteLength('{"é":1}')));
    expect(headers['transfer-encoding']).toBeUndefined();
    expect(headers['x-hop']).toBeUndefined();
    expect(headers['content-type']).toBe('application/json');
    expect(headers.cookie).toBeUndefined();
  });

  it('sends a Uint8Array body as bytes', async () => {
    await fetchUpstream({ url: `${base}/bytes`, method: 'PUT', body: new TextEncoder().encode('raw') }, local);
    expect(seen[0]).toMatchObject({ method: 'PUT', body: 'raw', headers: { 'content-length': '3' } });
  });

  it('returns a redirect as it is, without following it', async () => {
    const response = await fetchUpstream({ url: `${base}/redirect` }, local);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${base}/elsewhere`);
    expect(seen.map((request) => request.url)).toEqual(['/redirect']);
  });

  it('gives up after the time limit with an error naming it', async () => {
    const started = performance.now();
    const failure = fetchUpstream({ url: `${base}/silent` }, { ...local, timeoutMs: 200 });
    await expect(failure).rejects.toBeInstanceOf(AppError);
    await expect(failure).rejects.toMatchObject({ code: 'UPSTREAM_ERROR', message: expect.stringContaining('did not answer within the 200 ms limit') });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('stops reading an answer larger than the size limit with an error naming it', async () => {
    const failure = fetchUpstream({ url: `${base}/huge` }, { ...local, maxResponseBytes: 1024 * 1024 });
    await expect(failure).rejects.toMatchObject({ name: 'AppError', code: 'UPSTREAM_ERROR', message: expect.stringContaining('1048576 byte limit') });
  });

  it('reports an unreachable upstream with its host, not a stack', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchUpstream({ url: `http://127.0.0.1:${closedPort}/` }, local)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'The upstream 127.0.0.1 refused the connection',
    });
  });

  it('refuses other schemes, credentials in the URL, unknown methods and bad headers', async () => {
    for (const url of ['ftp://example.com/file', 'file:///etc/passwd', 'not a url', `http://user:pass@127.0.0.1:${port}/`]) {
      await expect(fetchUpstream({ url }, local), url).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    await expect(fetchUpstream({ url: `${base}/`, method: 'TRACE' }, local)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('GET, POST') });
    await expect(fetchUpstream({ url: `${base}/`, headers: { 'x-bad': 'a\r\nb' } }, local)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(seen).toHaveLength(0);
  });

  it('refuses loopback, IPv6 loopback, link-local and names resolving to them unless private URLs are allowed', async () => {
    for (const url of [`${base}/`, 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/', `http://localhost:${port}/`]) {
      await expect(fetchUpstream({ url }, { allowPrivateUrls: false }), url).rejects.toMatchObject({
        name: 'AppError',
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(UPSTREAM_PRIVATE_ADDRESS_MESSAGE),
      });
    }
    expect(seen).toHaveLength(0);
  });
});
