import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from './lib.mjs';

describe('freePorts', () => {
  it('finds ports that are all different and free again once returned', async () => {
    const ports = await freePorts(8);
    expect(new Set(ports).size).toBe(8);
    for (const port of ports) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
