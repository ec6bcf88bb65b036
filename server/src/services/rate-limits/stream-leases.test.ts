import { describe, expect, it } from 'vitest';
import { memoryStreamLeases } from './stream-leases';

describe('memory stream leases', () => {
  it('hold at most `max` live leases per key, give a place back on release, and let an unrenewed lease expire', async () => {
    let now = 0;
    const leases = memoryStreamLeases(() => now);
    const first = await leases.acquire('owner-streams:a', 2, 1_000);
    const second = await leases.acquire('owner-streams:a', 2, 1_000);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await leases.acquire('owner-streams:a', 2, 1_000)).toBeNull();
    // Another key has places of its own.
    expect(await leases.acquire('owner-streams:b', 2, 1_000)).not.toBeNull();

    await leases.release('owner-streams:a', first!);
    const third = await leases.acquire('owner-streams:a', 2, 1_000);
    expect(third).not.toBeNull();

    // A renewed lease outlives its first term; one never renewed (its server died) does not.
    now = 900;
    await leases.renew('owner-streams:a', third!, 1_000);
    now = 1_500;
    expect(await leases.acquire('owner-streams:a', 2, 1_000)).not.toBeNull();
    expect(await leases.acquire('owner-streams:a', 2, 1_000)).toBeNull();
  });
});
