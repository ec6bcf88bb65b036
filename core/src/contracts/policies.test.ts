import { describe, expect, it } from 'vitest';
import { createPolicyInput, listPoliciesInput, POLICY_NAME_MESSAGE, policyChanges, updatePolicyInput } from './policies';

const AGENT_ID = '0195f3c2-7d1e-7a4b-9c2d-1e2f3a4b5c6d';
const POLICY_ID = '0195f3c2-7d1e-7a4b-9c2d-1e2f3a4b5c6e';

function messagesOf(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`Expected ${JSON.stringify(value)} to be refused`);
  return result.error?.issues.map((issue) => issue.message) ?? [];
}

describe('createPolicyInput', () => {
  it('trims the name, parses the rules into atomic units and defaults to enforced and enabled', () => {
    expect(createPolicyInput.parse({ name: '  Compute only ', rules: { dailyCap: 100, allowedCategories: ['compute'] } })).toEqual({
      name: 'Compute only',
      rules: { dailyLimit: 100_000_000n, allowedCategories: ['compute'] },
      shadow: false,
      enabled: true,
    });
    expect(createPolicyInput.parse({ name: 'p', agentId: AGENT_ID, rules: { maxPerTransaction: 5 }, shadow: true, enabled: false })).toMatchObject({
      agentId: AGENT_ID,
      shadow: true,
      enabled: false,
    });
  });

  it('asks for a name when it is missing or blank, and caps its length', () => {
    for (const name of [undefined, '', '   ']) expect(messagesOf(createPolicyInput, { name, rules: { dailyLimit: 1 } })).toEqual([POLICY_NAME_MESSAGE]);
    expect(messagesOf(createPolicyInput, { name: 'x'.repeat(101), rules: { dailyLimit: 1 } })).toEqual(['Policy name must be at most 100 characters']);
  });

  it('keeps names of intent policies for the payment engine', () => {
    expect(messagesOf(createPolicyInput, { name: 'Intent:0195f3c2', rules: { dailyLimit: 1 } })).toEqual([
      'Policy names starting with "intent:" are reserved for policies attached to a payment intent',
    ]);
  });

  it("passes on the policy engine's messages for bad rules", () => {
    expect(messagesOf(createPolicyInput, { name: 'p', rules: { dailyLimt: 5 } })[0]).toMatch(/^Unknown policy rule dailyLimt; known rules: /);
    expect(messagesOf(createPolicyInput, { name: 'p', rules: { maxPerTransaction: -1 } })).toEqual(['maxPerTransaction must not be negative']);
    expect(messagesOf(createPolicyInput, { name: 'p', rules: {} })[0]).toMatch(/^A policy must set at least one rule/);
    expect(messagesOf(createPolicyInput, { name: 'p' })).toEqual(['A policy must be an object of rules']);
  });

  it('needs agentId to be a UUID and shadow and enabled to be booleans', () => {
    expect(messagesOf(createPolicyInput, { name: 'p', agentId: 'bot', rules: { dailyLimit: 1 } })).toEqual(['agentId must be the id of one of your agents']);
    expect(messagesOf(createPolicyInput, { name: 'p', rules: { dailyLimit: 1 }, shadow: 'yes' })).toEqual(['shadow must be true or false']);
    expect(messagesOf(createPolicyInput, { name: 'p', rules: { dailyLimit: 1 }, enabled: 1 })).toEqual(['enabled must be true or false']);
  });
});

describe('updatePolicyInput', () => {
  it('changes only what it names', () => {
    expect(updatePolicyInput.parse({ policyId: POLICY_ID, enabled: false })).toEqual({ policyId: POLICY_ID, enabled: false });
    expect(updatePolicyInput.parse({ policyId: POLICY_ID, rules: { timeBox: '2h' } })).toEqual({
      policyId: POLICY_ID,
      rules: { dailyLimit: undefined, timeBox: { text: '2h', milliseconds: 7_200_000 } },
    });
  });

  it('refuses a change that names nothing, and a policy id that is not a UUID', () => {
    expect(messagesOf(updatePolicyInput, { policyId: POLICY_ID })).toEqual(['Give at least one of rules, shadow or enabled to change']);
    expect(messagesOf(policyChanges, {})).toEqual(['Give at least one of rules, shadow or enabled to change']);
    expect(messagesOf(updatePolicyInput, { policyId: 'p1', shadow: true })).toEqual(['policyId must be a UUID']);
  });
});

describe('listPoliciesInput', () => {
  it('lists current versions of every agent unless asked otherwise', () => {
    expect(listPoliciesInput.parse({})).toEqual({ includeSuperseded: false });
    expect(listPoliciesInput.parse({ agentId: AGENT_ID, includeSuperseded: true })).toEqual({ agentId: AGENT_ID, includeSuperseded: true });
    expect(messagesOf(listPoliciesInput, { includeSuperseded: 'yes' })).toEqual(['includeSuperseded must be true or false']);
  });
});
