import { agentIdSchema } from '@purser/core';
import { describe, expect, it } from 'vitest';
import { isAgentId } from './agent-id';

const ids = [
  '3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6f',
  '3F2B8C1E-9D4A-4C7B-8E2F-1A2B3C4D5E6F',
  '018f3c2e-7a1b-7c3d-9e4f-5a6b7c8d9e0f',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '3f2b8c1e-9d4a-0c7b-8e2f-1a2b3c4d5e6f',
  '3f2b8c1e-9d4a-4c7b-7e2f-1a2b3c4d5e6f',
  '3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6',
  '3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6f0',
  '3f2b8c1e9d4a4c7b8e2f1a2b3c4d5e6f',
  'not-an-agent',
  '',
  'did:agnic:3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6f',
];

describe('isAgentId', () => {
  it('accepts a UUID', () => {
    expect(isAgentId('3f2b8c1e-9d4a-4c7b-8e2f-1a2b3c4d5e6f')).toBe(true);
  });

  it('refuses what cannot be an agent id', () => {
    expect(isAgentId('not-an-agent')).toBe(false);
    expect(isAgentId('')).toBe(false);
  });

  it.each(ids)('agrees with the server contract on %j', (id) => {
    expect(isAgentId(id)).toBe(agentIdSchema.safeParse(id).success);
  });
});
