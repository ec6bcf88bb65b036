import { describe, expect, it } from 'vitest';
import { policyRulesDocumentView, policyRulesSchema, policyRulesToDocument } from '@purser/core';
import { checkPolicyForm, createPolicyBody, emptyPolicyForm, errorKeyOfMessage, newTimeWindow, policyForm, policyRules, splitList, type PolicyForm } from './policy-form';

const AGENT = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function form(changes: Partial<PolicyForm>): PolicyForm {
  return { ...emptyPolicyForm(), name: 'Weekday data', ...changes };
}

describe('splitList', () => {
  it('splits on commas and new lines and drops empty entries', () => {
    expect(splitList(' data_api, compute\n\n inference ,')).toEqual(['data_api', 'compute', 'inference']);
    expect(splitList('   ')).toEqual([]);
  });
});

describe('policyRules', () => {
  it('writes only the rules the form sets', () => {
    expect(policyRules(form({ maxPerTransaction: ' 5 ', allowedCountries: 'us, de' }))).toEqual({ maxPerTransaction: '5', allowedCountries: ['us', 'de'] });
  });

  it('writes every rule the engine has', () => {
    const rules = policyRules(
      form({
        maxPerTransaction: '5',
        dailyLimit: '100',
        monthlyBudget: '1000',
        approvalThreshold: '50',
        allowedCategories: 'data_api',
        blockedCategories: 'gambling',
        allowedMerchants: `api.example.com\n${PAYEE}`,
        blockedMerchants: 'bad.example',
        allowedCountries: 'US',
        blockedCountries: 'KP',
        timeWindows: [{ key: 1, days: ['fri', 'mon'], start: '09:00', end: '17:00' }],
        kyaEscalation: 'moderate',
        timeBox: '24h',
        preferredProtocol: 'mpp',
      }),
    );
    // Every rule of the stored document, which lists each rule of the engine once.
    expect(Object.keys(rules).sort()).toEqual(Object.keys(policyRulesDocumentView.shape).sort());
    expect(rules.preferredProtocol).toBe('mpp');
    // Days in week order, as the engine stores them.
    expect(rules.timeWindows).toEqual([{ days: ['mon', 'fri'], start: '09:00', end: '17:00' }]);
    expect(policyRulesSchema.safeParse(rules).success).toBe(true);
  });
});

describe('policyForm', () => {
  it('reads a stored policy back into the same document (form -> rules -> stored -> form)', () => {
    const original = form({
      maxPerTransaction: '2.5',
      monthlyBudget: '100.000001',
      allowedMerchants: `api.example.com\n${PAYEE}`,
      blockedCountries: 'KP, IR',
      timeWindows: [{ key: 1, days: ['sat', 'sun'], start: '22:00', end: '02:00' }],
      kyaEscalation: 'high',
      timeBox: '7d',
      preferredProtocol: 'x402',
      shadow: true,
    });
    const stored = policyRulesToDocument(policyRulesSchema.parse(policyRules(original)));
    const back = policyForm({ name: 'Weekday data', agentId: AGENT, shadow: true, enabled: false, rules: stored });
    expect(policyRules(back)).toEqual(policyRules(original));
    expect(back).toMatchObject({ agentId: AGENT, shadow: true, enabled: false, blockedCountries: 'KP, IR', allowedMerchants: `api.example.com\n${PAYEE}`, preferredProtocol: 'x402' });
  });

  it('leaves the preferred protocol unset when the policy has none (no preference: the cheaper, then x402)', () => {
    const back = policyForm({ name: 'Cap', agentId: null, shadow: false, enabled: true, rules: { dailyLimit: '10' } });
    expect(back.preferredProtocol).toBe('');
    expect(policyRules(back)).not.toHaveProperty('preferredProtocol');
  });

  it('leaves an owner-wide policy without an agent', () => {
    expect(policyForm({ name: 'All', agentId: null, shadow: false, enabled: true, rules: { dailyLimit: '10' } }).agentId).toBe('');
  });
});

describe('checkPolicyForm', () => {
  it('passes a valid form and hands back its document', () => {
    expect(checkPolicyForm(form({ maxPerTransaction: '5' }), 'create')).toEqual({ ok: true, rules: { maxPerTransaction: '5' } });
  });

  it("places the server schema's messages under the fields they are about", () => {
    const result = checkPolicyForm(
      form({
        name: '  ',
        maxPerTransaction: '-1',
        allowedCountries: 'US, UK',
        blockedMerchants: '0x1234',
        timeWindows: [newTimeWindow(), { key: 99, days: ['mon'], start: '25:00', end: '10:00' }],
        timeBox: '3 months',
      }),
      'create',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.name).toBe('Please enter a policy name');
    expect(result.errors.maxPerTransaction).toBe('maxPerTransaction must not be negative');
    expect(result.errors.allowedCountries).toMatch(/"UK" is not an assigned .* \(did you mean GB\?\)/);
    expect(result.errors.blockedMerchants).toMatch(/is not an EVM address/);
    expect(result.errors['timeWindows.1']).toMatch(/^Time window start must be a time HH:MM/);
    expect(result.errors['timeWindows.0']).toBeUndefined();
    expect(result.errors.timeBox).toBe('timeBox must be a duration such as 30m, 24h, 7d or 2w');
  });

  it('asks for at least one rule, and for a day in every time window', () => {
    const empty = checkPolicyForm(form({}), 'create');
    expect(empty).toMatchObject({ ok: false, errors: { form: expect.stringMatching(/^A policy must set at least one rule/) } });
    const noDays = checkPolicyForm(form({ timeWindows: [{ key: 1, days: [], start: '09:00', end: '17:00' }] }), 'edit');
    expect(noDays).toMatchObject({ ok: false, errors: { 'timeWindows.0': 'Choose at least one day for this window' } });
  });

  it('passes a policy whose only rule is the preferred protocol', () => {
    expect(checkPolicyForm(form({ preferredProtocol: 'mpp' }), 'create')).toEqual({ ok: true, rules: { preferredProtocol: 'mpp' } });
  });

  it('does not check the name of an edit, which keeps its name', () => {
    expect(checkPolicyForm(form({ name: '', dailyLimit: '10' }), 'edit').ok).toBe(true);
  });
});

describe('createPolicyBody', () => {
  it('scopes the policy to the chosen agent, or to every agent when none is chosen', () => {
    const rules = { dailyLimit: '10' };
    expect(createPolicyBody(form({ agentId: AGENT, shadow: true }), rules)).toEqual({ name: 'Weekday data', agentId: AGENT, rules, shadow: true, enabled: true });
    expect(createPolicyBody(form({}), rules)).not.toHaveProperty('agentId');
  });
});

describe('errorKeyOfMessage', () => {
  it('places a server message by the rule it names', () => {
    expect(errorKeyOfMessage('allowedCountries: "UK" is not an assigned ISO 3166-1 alpha-2 country code')).toBe('allowedCountries');
    expect(errorKeyOfMessage('monthlyBudget must have at most 6 decimals')).toBe('monthlyBudget');
    expect(errorKeyOfMessage('preferredProtocol must be one of x402, mpp')).toBe('preferredProtocol');
    expect(errorKeyOfMessage('Time window end must be a time HH:MM from 00:00 to 24:00')).toBe('timeWindows');
    expect(errorKeyOfMessage('Please enter a policy name')).toBe('name');
    expect(errorKeyOfMessage('agentId must be the id of one of your agents')).toBe('agentId');
    expect(errorKeyOfMessage('A policy named "x" already exists; change it instead (id 1)')).toBe('name');
    expect(errorKeyOfMessage('Policy "x" was changed by another request at the same time; read it again and retry')).toBe('form');
  });
});
