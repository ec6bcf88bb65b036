import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@purser/core';
import { createOutboundPolicy, parseAllowlist, type Resolve } from '../../outbound/outbound-policy';
import { fetchUpstream } from './upstream';

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
      } else if (request.url === '/to-metadata') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
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

/** The sandbox's policy: loopback is reachable, so the local seller is. */
const local = { policy: createOutboundPolicy({ allowLoopback: true }) };
const strict = { policy: createOutboundPolicy() };

/** Fixed answers for names, so no real DNS is asked. */
const resolveTo =
  (answers: Record<string, string[]>): Resolve =>
  async (hostname) => (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

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

  it('refuses loopback, by address or by name, where loopback is not allowed, before connecting', async () => {
    for (const url of [`${base}/`, `http://[::1]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://localhost:${port}/`]) {
      await expect(fetchUpstream({ url }, strict), url).rejects.toMatchObject({ name: 'AppError', code: 'URL_NOT_ALLOWED', message: expect.stringMatching(/^URL refused: /) });
    }
    expect(seen).toHaveLength(0);
  });

  it('refuses link-local, metadata and mapped link-local addresses even in the sandbox', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://metadata.google.internal./computeMetadata/v1/',
    ]) {
      await expect(fetchUpstream({ url }, local), url).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    }
  });

  it('refuses a name that resolves to 169.254.169.254, or to it among allowed answers, without connecting', async () => {
    const policy = createOutboundPolicy({ allowLoopback: true, resolve: resolveTo({ 'seller.test': ['169.254.169.254'], 'mixed.test': ['127.0.0.1', '169.254.169.254'] }) });
    for (const host of ['seller.test', 'mixed.test']) {
      await expect(fetchUpstream({ url: `http://${host}:${port}/` }, { policy }), host).rejects.toMatchObject({
        code: 'URL_NOT_ALLOWED',
        message: `URL refused: ${host} resolves to 169.254.169.254, a link-local address`,
      });
    }
    expect(seen).toHaveLength(0);
  });

  it('connects to the address the check saw for a name', async () => {
    const policy = createOutboundPolicy({ allowLoopback: true, resolve: resolveTo({ 'seller.test': ['127.0.0.1'] }) });
    const response = await fetchUpstream({ url: `http://seller.test:${port}/named` }, { policy });
    expect(response.status).toBe(201);
    expect(seen.map((request) => [request.url, request.headers.host])).toEqual([['/named', `seller.test:${port}`]]);
  });

  it('refuses private addresses unless the policy allows them or the allowlist names them', async () => {
    await expect(fetchUpstream({ url: 'http://10.0.0.7/' }, local)).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED', message: 'URL refused: 10.0.0.7 is a private network address' });
    // Allowed, the request gets as far as the connection (a seller bound to loopback stands in for 10.0.0.7).
    const allowlisted = createOutboundPolicy({ allowlist: parseAllowlist('seller.internal'), resolve: resolveTo({ 'seller.internal': ['127.0.0.1'] }) });
    expect((await fetchUpstream({ url: `http://seller.internal:${port}/internal` }, { policy: allowlisted })).status).toBe(201);
    expect(seen.map((request) => request.url)).toEqual(['/internal']);
  });

  it("refuses loopback on a port of the product's own services even in the sandbox", async () => {
    const policy = createOutboundPolicy({ allowLoopback: true, deniedLoopbackPorts: [port], resolve: resolveTo({ localhost: ['127.0.0.1'] }) });
    for (const url of [`${base}/`, `http://localhost:${port}/`]) {
      await expect(fetchUpstream({ url }, { policy }), url).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED', message: expect.stringContaining(`port ${port}`) });
    }
    expect(seen).toHaveLength(0);
  });

  it('returns a redirect to the metadata address as it is, without following it', async () => {
    const response = await fetchUpstream({ url: `${base}/to-metadata` }, local);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('http://169.254.169.254/latest/meta-data/');
    expect(seen.map((request) => request.url)).toEqual(['/to-metadata']);
  });
});
