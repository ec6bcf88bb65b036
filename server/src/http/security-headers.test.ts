import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { afterEach, describe, expect, it } from 'vitest';
import { securityHeaderList, securityHeaderOptions } from './security-headers';

let server: Server | undefined;

afterEach(async () => {
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
});

/** The headers helmet's own middleware sets on a real response of a real server. */
async function helmetHeaders(publicUrl: string): Promise<Record<string, string>> {
  const middleware = helmet(securityHeaderOptions(publicUrl));
  server = createServer((request, response) => middleware(request, response, () => response.end('ok')));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const headers = Object.fromEntries(answer.headers);
  for (const name of ['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']) delete headers[name];
  return headers;
}

describe('securityHeaderList', () => {
  it.each(['http://127.0.0.1:3000', 'https://purser.example'])('answers exactly the headers helmet sets on a response (%s)', async (publicUrl) => {
    const listed = Object.fromEntries(securityHeaderList(securityHeaderOptions(publicUrl)).map(([name, value]) => [name.toLowerCase(), value]));
    expect(listed).toEqual(await helmetHeaders(publicUrl));
    expect(listed['content-security-policy']).toContain("frame-ancestors 'none'");
    expect('strict-transport-security' in listed).toBe(publicUrl.startsWith('https:'));
  });

  it('refuses a policy computed per request, which one list could not hold', () => {
    const options = securityHeaderOptions('https://purser.example');
    const csp = options.contentSecurityPolicy as { directives: Record<string, unknown> };
    csp.directives['script-src'] = ["'self'", () => "'nonce-abc'"];
    expect(() => securityHeaderList(options)).toThrow(/computed per request/);
  });
});
