import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from './lib.mjs';

function listen(port: number) {
  const server = createServer();
  return new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const close = (server: ReturnType<typeof createServer>) => new Promise((resolve) => server.close(resolve));

describe('freePorts', () => {
  it('finds ports that are all different and free again once returned', async () => {
    const ports = await freePorts(8);
    expect(new Set(ports).size).toBe(8);
    for (const port of ports) await close(await listen(port));
  });

  it('finds them below the ephemeral range, where no outgoing connection takes one in the meantime', async () => {
    const [ephemeralStart] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = await freePorts(20);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart);
    }
  });

  it('passes over a port that is already listened on', async () => {
    // A port a listener holds is never handed out, however many are asked for.
    const ports = await freePorts(3);
    const taken = await Promise.all(ports.map((port) => listen(port)));
    try {
      const found = await freePorts(30);
      for (const port of ports) expect(found).not.toContain(port);
    } finally {
      await Promise.all(taken.map(close));
    }
  });
});
