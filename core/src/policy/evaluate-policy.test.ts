import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors';
import { KYA_TIER_CAPS, type KyaTier } from '../kya';
import { parseAmount } from '../money';
import {
  evaluatePolicy,
  hostRefusal,
  POLICY_RULE_CODES,
  type PolicyAgent,
  type PolicyConnection,
  type PolicySession,
  type PolicyDocument,
  type PolicyEvaluation,
  type PolicyIntent,
  type PolicyUsage,
} from './evaluate-policy';
import { policyRulesSchema, type PolicyRulesDocument } from './policy-rules';

const $ = (dollars: number | string): bigint => parseAmount(dollars, { allowZero: true });

/** Wednesday 15 January 2025, 12:00 UTC. */
const WEDNESDAY_NOON = new Date('2025-01-15T12:00:00Z');

function policy(rules: PolicyRulesDocument, options: Partial<Omit<PolicyDocument, 'rules'>> = {}): PolicyDocument {
  return { id: 'policy-1', name: 'Test policy', version: 1, shadow: false, ...options, rules: policyRulesSchema.parse(rules) };
}

interface Scenario {
  intent?: Partial<PolicyIntent>;
  agent?: { kyaTier?: KyaTier; spendingRules?: Partial<PolicyAgent['spendingRules']> };
  rules?: PolicyRulesDocument;
  policies?: PolicyDocument[];
  usage?: Partial<PolicyUsage>;
  connection?: PolicyConnection;
  session?: PolicySession;
  at?: Date;
  timeZone?: string;
}

/**
 * A high-tier agent with roomy spending rules, so a test sees only the rule it is about.
 * `rules` is shorthand for one enforced policy.
 */
function evaluate(scenario: Scenario = {}): PolicyEvaluation {
  return evaluatePolicy({
    intent: { amount: $(10), currency: 'USDC', ...scenario.intent },
    agent: {
      kyaTier: scenario.agent?.kyaTier ?? 'high',
      spendingRules: { maxTransactionAmount: $(5_000), maxDailyLimit: $(20_000), approvalThreshold: null, ...scenario.agent?.spendingRules },
    },
    policies: scenario.policies ?? (scenario.rules ? [policy(scenario.rules)] : []),
    usage: { spentInWindow: 0n, spentThisMonth: 0n, ...scenario.usage },
    connection: scenario.connection,
    session: scenario.session,
    at: scenario.at ?? WEDNESDAY_NOON,
    timeZone: scenario.timeZone ?? 'UTC',
  });
}

function codes(result: PolicyEvaluation): string[] {
  return result.fired.map((entry) => entry.code);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the agent spending rules', () => {
  it('allow a payment exactly at the maximum per transaction and refuse one atomic unit more', () => {
    const agent = { spendingRules: { maxTransactionAmount: $(100) } };
    expect(evaluate({ agent, intent: { amount: $(100) } })).toMatchObject({ decision: 'allow', fired: [] });
    const over = evaluate({ agent, intent: { amount: $(100) + 1n } });
    expect(over.decision).toBe('deny');
    expect(over.fired).toEqual([
      {
        rule: 'agent.maxTransactionAmount',
        outcome: 'deny',
        code: 'MAX_PER_TRANSACTION_EXCEEDED',
        message: "The agent's spending rules allow at most $100.00 per payment; this payment is $100.000001.",
        shadow: false,
      },
    ]);
  });

  it('allow spending up to the daily limit over the rolling 24 hours and refuse one atomic unit more', () => {
    const agent = { spendingRules: { maxDailyLimit: $(1_000) } };
    expect(evaluate({ agent, intent: { amount: $(60) }, usage: { spentInWindow: $(940) } }).decision).toBe('allow');
    const over = evaluate({ agent, intent: { amount: $(60) }, usage: { spentInWindow: $(940) + 1n } });
    expect(over.decision).toBe('deny');
    expect(over.fired[0]).toMatchObject({
      rule: 'agent.maxDailyLimit',
      code: 'DAILY_LIMIT_EXCEEDED',
      message:
        "The agent's spending rules allow $1,000.00 in any 24 hours; $940.000001 was spent in the last 24 hours, so this payment of $60.00 would make it $1,000.000001.",
    });
  });

  it('ask for approval above the approval threshold but not at it', () => {
    const agent = { spendingRules: { approvalThreshold: $(25) } };
    expect(evaluate({ agent, intent: { amount: $(25) } }).decision).toBe('allow');
    const over = evaluate({ agent, intent: { amount: $(25) + 1n } });
    expect(over.decision).toBe('require_approval');
    expect(over.fired).toEqual([
      {
        rule: 'agent.approvalThreshold',
        outcome: 'require_approval',
        code: 'APPROVAL_THRESHOLD_EXCEEDED',
        message: "The agent's spending rules send payments above $25.00 to the owner for approval; this payment is $25.000001.",
        shadow: false,
      },
    ]);
  });

  it('never ask for approval when the threshold is null', () => {
    expect(evaluate({ agent: { spendingRules: { approvalThreshold: null } }, intent: { amount: $(5_000) } }).decision).toBe('allow');
  });
});

describe("an OAuth connection's cap", () => {
  it('lets a payment through up to the cap, exactly', () => {
    expect(evaluate({ connection: { capUnits: $(5), spentUnits: $(1) }, intent: { amount: $(4) } }).decision).toBe('allow');
  });

  it('denies a payment that would pass the cap, with the figures', () => {
    const result = evaluate({ connection: { capUnits: $(5), spentUnits: $(1) }, intent: { amount: $(4) + 1n } });
    expect(result.decision).toBe('deny');
    expect(result.fired).toEqual([
      {
        rule: 'connection.cap',
        outcome: 'deny',
        code: 'CONNECTION_CAP_EXCEEDED',
        message: "This connection's spending cap is $5.00; $1.00 was spent through it, so this payment of $4.000001 would make it $5.000001.",
        shadow: false,
      },
    ]);
  });

  it('only narrows the agent rules: both fire when both are passed', () => {
    const result = evaluate({ connection: { capUnits: $(50), spentUnits: 0n }, agent: { spendingRules: { maxTransactionAmount: $(20) } }, intent: { amount: $(60) } });
    expect(codes(result).sort()).toEqual(['CONNECTION_CAP_EXCEEDED', 'MAX_PER_TRANSACTION_EXCEEDED']);
  });
});

describe('a payment session', () => {
  const session = (fields: Partial<PolicySession> = {}): PolicySession => ({
    status: 'open',
    expiresAt: new Date(WEDNESDAY_NOON.getTime() + 3_600_000),
    totalUnits: $(10),
    perPaymentUnits: null,
    spentUnits: 0n,
    scope: {},
    ...fields,
  });

  it('lets a payment through up to what is left, exactly', () => {
    expect(evaluate({ session: session({ spentUnits: $(6) }), intent: { amount: $(4) } }).decision).toBe('allow');
  });

  it('denies what would pass its total or its cap per payment, with the figures', () => {
    const over = evaluate({ session: session({ spentUnits: $(6) }), intent: { amount: $(4) + 1n } });
    expect(codes(over)).toEqual(['SESSION_BUDGET_EXCEEDED']);
    expect(over.fired[0]?.message).toBe("The payment session's budget is $10.00; $6.00 was spent from it, so this payment of $4.000001 would make it $10.000001.");
    expect(codes(evaluate({ session: session({ perPaymentUnits: $(1) }), intent: { amount: $(2) } }))).toEqual(['SESSION_PER_PAYMENT_EXCEEDED']);
  });

  it('denies everything once it is not open: expired, requested, rejected or closed', () => {
    expect(codes(evaluate({ session: session({ expiresAt: WEDNESDAY_NOON }) }))).toEqual(['SESSION_NOT_OPEN']);
    for (const status of ['requested', 'rejected', 'closed'] as const) expect(codes(evaluate({ session: session({ status }) }))).toEqual(['SESSION_NOT_OPEN']);
  });

  it('covers only the sellers, categories, rails and protocols its scope names', () => {
    const scoped = session({ scope: { sellers: ['api.example.com', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'], categories: ['data'], rails: ['x402-base'], protocols: ['x402'] } });
    const inScope = { merchant: 'api.example.com', category: 'data', rail: 'x402-base', protocol: 'x402' };
    expect(evaluate({ session: scoped, intent: inScope }).decision).toBe('allow');
    expect(evaluate({ session: scoped, intent: { ...inScope, merchant: null, toAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } }).decision).toBe('allow');
    expect(evaluate({ session: scoped, intent: { ...inScope, merchant: 'API.example.com:8443' } }).decision).toBe('allow');
    expect(evaluate({ session: scoped, intent: { ...inScope, merchant: 'https://api.example.com/v1' } }).decision).toBe('allow');
    for (const outside of [{ merchant: 'evil.example.com' }, { category: 'travel' }, { rail: 'ledger' }, { protocol: 'mpp' }, { merchantVerified: false }]) {
      expect(codes(evaluate({ session: scoped, intent: { ...inScope, ...outside } })), JSON.stringify(outside)).toEqual(['SESSION_OUT_OF_SCOPE']);
    }
  });

  it('never lifts the agent rules', () => {
    const result = evaluate({ session: session({ totalUnits: $(100) }), agent: { spendingRules: { maxTransactionAmount: $(5) } }, intent: { amount: $(20) } });
    expect(codes(result)).toEqual(['MAX_PER_TRANSACTION_EXCEEDED']);
  });
});

describe('the KYA tier caps', () => {
  const roomy = { maxTransactionAmount: $(100_000), maxDailyLimit: $(1_000_000) };

  it('let each tier pay exactly its per-transaction cap and refuse one atomic unit more', () => {
    for (const tier of ['pseudonymous', 'basic', 'moderate', 'high'] as const) {
      const cap = KYA_TIER_CAPS[tier].perTransaction;
      expect(evaluate({ agent: { kyaTier: tier, spendingRules: roomy }, intent: { amount: cap } }).decision, tier).toBe('allow');
      const over = evaluate({ agent: { kyaTier: tier, spendingRules: roomy }, intent: { amount: cap + 1n } });
      expect(over.decision, tier).toBe('deny');
      expect(over.fired.map((entry) => [entry.rule, entry.code]), tier).toEqual([['kyaTierCap.perTransaction', 'KYA_TIER_CAP_EXCEEDED']]);
    }
  });

  it('let each tier spend exactly its daily cap over the rolling 24 hours and refuse one atomic unit more', () => {
    for (const tier of ['pseudonymous', 'basic', 'moderate', 'high'] as const) {
      const { perDay } = KYA_TIER_CAPS[tier];
      const agent = { kyaTier: tier, spendingRules: roomy };
      expect(evaluate({ agent, intent: { amount: 1n }, usage: { spentInWindow: perDay - 1n } }).decision, tier).toBe('allow');
      const over = evaluate({ agent, intent: { amount: 1n }, usage: { spentInWindow: perDay } });
      expect(over.fired.map((entry) => [entry.rule, entry.code]), tier).toEqual([['kyaTierCap.perDay', 'KYA_TIER_CAP_EXCEEDED']]);
    }
  });

  it('apply even when the agent spending rules allow more, and say which tier the payment needs', () => {
    const result = evaluate({
      agent: { kyaTier: 'pseudonymous', spendingRules: { maxTransactionAmount: $(100), maxDailyLimit: $(1_000) } },
      intent: { amount: $(50) },
    });
    expect(result.decision).toBe('deny');
    expect(result.fired[0]?.message).toBe(
      "The agent's KYA tier pseudonymous allows at most $10.00 per payment; this payment is $50.00. It needs at least the basic tier.",
    );
  });

  it('refuse an agent below the tier the intent asks for and pass one at or above it', () => {
    const low = evaluate({ agent: { kyaTier: 'pseudonymous' }, intent: { amount: $(1), kyaTier: 'basic' } });
    expect(low.decision).toBe('deny');
    expect(low.fired).toEqual([
      {
        rule: 'intent.kyaTier',
        outcome: 'deny',
        code: 'KYA_TIER_TOO_LOW',
        message: 'The intent asks for an agent of KYA tier basic or above; this agent is pseudonymous.',
        shadow: false,
      },
    ]);
    expect(evaluate({ agent: { kyaTier: 'basic' }, intent: { amount: $(1), kyaTier: 'basic' } }).decision).toBe('allow');
    expect(evaluate({ agent: { kyaTier: 'high' }, intent: { amount: $(1), kyaTier: 'moderate' } }).decision).toBe('allow');
  });
});

describe('kyaEscalation', () => {
  const pseudonymous = { kyaTier: 'pseudonymous' as const, spendingRules: { maxTransactionAmount: $(100_000), maxDailyLimit: $(1_000_000) } };

  it('sends a payment above the agent tier cap but within the escalation tier cap to the owner for approval', () => {
    const result = evaluate({ agent: pseudonymous, intent: { amount: $(20) }, rules: { kyaEscalation: 'moderate' } });
    expect(result.decision).toBe('require_approval');
    expect(result.fired).toEqual([
      {
        rule: 'kyaTierCap.perTransaction',
        outcome: 'require_approval',
        code: 'KYA_ESCALATION_REQUIRED',
        message:
          "The agent's KYA tier pseudonymous allows at most $10.00 per payment; this payment is $20.00. That is within the moderate tier's cap of $1,000.00. " +
          'Policy "Test policy" escalates up to the moderate tier, so the owner must approve it.',
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
  });

  it('escalates exactly at the escalation tier cap and refuses one atomic unit more', () => {
    const at = evaluate({ agent: pseudonymous, intent: { amount: $(1_000) }, usage: { spentInWindow: $(9_000) }, rules: { kyaEscalation: 'moderate' } });
    expect(at.decision).toBe('require_approval');
    expect(codes(at)).toEqual(['KYA_ESCALATION_REQUIRED', 'KYA_ESCALATION_REQUIRED']);

    const overOnce = evaluate({ agent: pseudonymous, intent: { amount: $(1_000) + 1n }, rules: { kyaEscalation: 'moderate' } });
    expect(overOnce.decision).toBe('deny');
    expect(overOnce.fired[0]).toMatchObject({ rule: 'kyaTierCap.perTransaction', code: 'KYA_TIER_CAP_EXCEEDED' });
    expect(overOnce.fired[0]?.message).toMatch(
      /It needs at least the high tier\. Policy "Test policy" escalates only up to the moderate tier, which does not cover it\.$/,
    );

    const overDaily = evaluate({ agent: pseudonymous, intent: { amount: $(1_000) }, usage: { spentInWindow: $(9_000) + 1n }, rules: { kyaEscalation: 'moderate' } });
    expect(overDaily.decision).toBe('deny');
    expect(overDaily.fired.map((entry) => [entry.rule, entry.code])).toEqual([
      ['kyaTierCap.perTransaction', 'KYA_ESCALATION_REQUIRED'],
      ['kyaTierCap.perDay', 'KYA_TIER_CAP_EXCEEDED'],
    ]);
  });

  it('covers an intent asking for a tier up to the escalation tier, and no higher', () => {
    const covered = evaluate({ agent: pseudonymous, intent: { amount: $(1), kyaTier: 'moderate' }, rules: { kyaEscalation: 'moderate' } });
    expect(covered.fired.map((entry) => [entry.rule, entry.code])).toEqual([['intent.kyaTier', 'KYA_ESCALATION_REQUIRED']]);
    const beyond = evaluate({ agent: pseudonymous, intent: { amount: $(1), kyaTier: 'high' }, rules: { kyaEscalation: 'moderate' } });
    expect(beyond.fired.map((entry) => [entry.rule, entry.code])).toEqual([['intent.kyaTier', 'KYA_TIER_TOO_LOW']]);
  });

  it('changes nothing when the escalation tier is not above the agent tier', () => {
    const result = evaluate({ agent: { ...pseudonymous, kyaTier: 'moderate' }, intent: { amount: $(1_500) }, rules: { kyaEscalation: 'moderate' } });
    expect(result.decision).toBe('deny');
    expect(codes(result)).toEqual(['KYA_TIER_CAP_EXCEEDED']);
  });

  it('binds at the lowest escalation tier when several policies name one', () => {
    const result = evaluate({
      agent: pseudonymous,
      intent: { amount: $(500) },
      policies: [policy({ kyaEscalation: 'high' }, { id: 'lenient', name: 'Lenient' }), policy({ kyaEscalation: 'basic' }, { id: 'strict', name: 'Strict' })],
    });
    expect(result.decision).toBe('deny');
    expect(result.fired[0]?.message).toMatch(/Policy "Strict" escalates only up to the basic tier/);
  });
});

describe('policy limits', () => {
  it('allow a payment exactly at maxPerTransaction and refuse one atomic unit more', () => {
    expect(evaluate({ rules: { maxPerTransaction: 50 }, intent: { amount: $(50) } }).decision).toBe('allow');
    const over = evaluate({ rules: { maxPerTransaction: 50 }, intent: { amount: $(50) + 1n } });
    expect(over.fired).toEqual([
      {
        rule: 'maxPerTransaction',
        outcome: 'deny',
        code: 'MAX_PER_TRANSACTION_EXCEEDED',
        message: 'Policy "Test policy" allows at most $50.00 per payment; this payment is $50.000001.',
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
  });

  it('allow spending up to the daily limit over the rolling 24 hours and refuse one atomic unit more', () => {
    expect(evaluate({ rules: { dailyLimit: 100 }, intent: { amount: $(30) }, usage: { spentInWindow: $(70) } }).decision).toBe('allow');
    const over = evaluate({ rules: { dailyLimit: 100 }, intent: { amount: $(30) + 1n }, usage: { spentInWindow: $(70) } });
    expect(over.fired.map((entry) => [entry.rule, entry.code])).toEqual([['dailyLimit', 'DAILY_LIMIT_EXCEEDED']]);
  });

  it('treat the spec dailyCap exactly like dailyLimit', () => {
    expect(evaluate({ rules: { dailyCap: 100 }, intent: { amount: $(30) }, usage: { spentInWindow: $(70) } }).decision).toBe('allow');
    expect(codes(evaluate({ rules: { dailyCap: 100 }, intent: { amount: $(30) }, usage: { spentInWindow: $(70) + 1n } }))).toEqual([
      'DAILY_LIMIT_EXCEEDED',
    ]);
  });

  it('freeze spending with a daily limit of zero', () => {
    expect(codes(evaluate({ rules: { dailyLimit: 0 }, intent: { amount: 1n } }))).toEqual(['DAILY_LIMIT_EXCEEDED']);
  });

  it('allow spending up to the monthly budget and refuse one atomic unit more', () => {
    expect(evaluate({ rules: { monthlyBudget: 300 }, intent: { amount: $(100) }, usage: { spentThisMonth: $(200) } }).decision).toBe('allow');
    const over = evaluate({ rules: { monthlyBudget: 300 }, intent: { amount: $(100) }, usage: { spentThisMonth: $(200) + 1n } });
    expect(over.fired).toEqual([
      {
        rule: 'monthlyBudget',
        outcome: 'deny',
        code: 'MONTHLY_BUDGET_EXCEEDED',
        message:
          'Policy "Test policy" has a monthly budget of $300.00; $200.000001 was spent this month (UTC), so this payment of $100.00 would make it $300.000001.',
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
  });

  it('ask for approval above the approval threshold but not at it', () => {
    expect(evaluate({ rules: { approvalThreshold: 20 }, intent: { amount: $(20) } }).decision).toBe('allow');
    const over = evaluate({ rules: { approvalThreshold: 20 }, intent: { amount: $(20) + 1n } });
    expect(over.decision).toBe('require_approval');
    expect(over.fired[0]).toMatchObject({
      rule: 'approvalThreshold',
      code: 'APPROVAL_THRESHOLD_EXCEEDED',
      message: 'Policy "Test policy" sends payments above $20.00 to the owner for approval; this payment is $20.000001.',
    });
  });

  it('add to the agent spending rules so the strictest limit wins', () => {
    const agent = { spendingRules: { maxTransactionAmount: $(100) } };
    const policyStricter = evaluate({ agent, rules: { maxPerTransaction: 50 }, intent: { amount: $(60) } });
    expect(policyStricter.fired.map((entry) => entry.rule)).toEqual(['maxPerTransaction']);
    const agentStricter = evaluate({ agent: { spendingRules: { maxTransactionAmount: $(40) } }, rules: { maxPerTransaction: 50 }, intent: { amount: $(45) } });
    expect(agentStricter.fired.map((entry) => entry.rule)).toEqual(['agent.maxTransactionAmount']);
  });
});

describe('category, merchant and country lists', () => {
  it('allow a listed category whatever its case and spacing and refuse an unlisted one', () => {
    const rules = { allowedCategories: ['Compute', 'data'] };
    expect(evaluate({ rules, intent: { category: ' COMPUTE ' } }).decision).toBe('allow');
    expect(evaluate({ rules, intent: { category: 'Data' } }).decision).toBe('allow');
    const other = evaluate({ rules, intent: { category: 'gambling' } });
    expect(other.fired).toEqual([
      {
        rule: 'allowedCategories',
        outcome: 'deny',
        code: 'CATEGORY_NOT_ALLOWED',
        message: 'Policy "Test policy" allows only the categories Compute, data; this payment\'s category is "gambling".',
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
  });

  it('refuse a payment with no category under a category allow-list', () => {
    for (const category of [undefined, null, '', '   ']) {
      const result = evaluate({ rules: { allowedCategories: ['compute'] }, intent: { category } });
      expect(codes(result), String(category)).toEqual(['CATEGORY_NOT_ALLOWED']);
      expect(result.fired[0]?.message).toBe('Policy "Test policy" allows only the categories compute; this payment names no category.');
    }
  });

  it('refuse a blocked category whatever its case and let a payment with no category past a block-list', () => {
    const rules = { blockedCategories: ['Gambling'] };
    expect(evaluate({ rules, intent: { category: 'gAMBLING' } }).fired).toEqual([
      {
        rule: 'blockedCategories',
        outcome: 'deny',
        code: 'CATEGORY_BLOCKED',
        message: 'Policy "Test policy" blocks the category "gAMBLING".',
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
    expect(evaluate({ rules, intent: { category: 'compute' } }).decision).toBe('allow');
    expect(evaluate({ rules, intent: { category: null } }).decision).toBe('allow');
  });

  it('refuse a category that is both allowed and blocked, as blocked', () => {
    expect(codes(evaluate({ rules: { allowedCategories: ['ads'], blockedCategories: ['ADS'] }, intent: { category: 'ads' } }))).toEqual([
      'CATEGORY_BLOCKED',
    ]);
  });

  it('apply merchant allow and block lists without regard to case, refusing a missing merchant under an allow-list', () => {
    const allowed = { allowedMerchants: ['api.example.com'] };
    expect(evaluate({ rules: allowed, intent: { merchant: 'API.Example.com' } }).decision).toBe('allow');
    expect(codes(evaluate({ rules: allowed, intent: { merchant: 'api.example.org' } }))).toEqual(['MERCHANT_NOT_ALLOWED']);
    expect(codes(evaluate({ rules: allowed, intent: {} }))).toEqual(['MERCHANT_NOT_ALLOWED']);
    const blocked = { blockedMerchants: ['Casino Inc'] };
    expect(codes(evaluate({ rules: blocked, intent: { merchant: 'casino inc' } }))).toEqual(['MERCHANT_BLOCKED']);
    expect(evaluate({ rules: blocked, intent: {} }).decision).toBe('allow');
  });

  it('refuse a merchant that is both allowed and blocked, as blocked, and ignore a trailing dot or a port on a blocked host', () => {
    const rules = { allowedMerchants: ['casino.example'], blockedMerchants: ['Casino.Example'] };
    expect(codes(evaluate({ rules, intent: { merchant: 'casino.example' } }))).toEqual(['MERCHANT_BLOCKED']);
    for (const merchant of ['casino.example.', 'casino.example:8443', 'CASINO.example.:443']) {
      expect(codes(evaluate({ rules: { blockedMerchants: ['casino.example'] }, intent: { merchant } })), merchant).toEqual(['MERCHANT_BLOCKED']);
    }
    expect(evaluate({ rules: { blockedMerchants: ['casino.example:8443'] }, intent: { merchant: 'casino.example' } }).decision).toBe('allow');
  });
  it('apply country allow and block lists without regard to case, refusing a missing country under an allow-list', () => {
    const allowed = { allowedCountries: ['de', 'FR'] };
    expect(evaluate({ rules: allowed, intent: { country: 'De' } }).decision).toBe('allow');
    expect(evaluate({ rules: allowed, intent: { country: 'fr' } }).decision).toBe('allow');
    const us = evaluate({ rules: allowed, intent: { country: 'us' } });
    expect(us.fired[0]).toMatchObject({ code: 'COUNTRY_NOT_ALLOWED', message: 'Policy "Test policy" allows only the countries DE, FR; this payment\'s country is "us".' });
    expect(codes(evaluate({ rules: allowed, intent: { country: null } }))).toEqual(['COUNTRY_NOT_ALLOWED']);
    const blocked = { blockedCountries: ['KP'] };
    expect(codes(evaluate({ rules: blocked, intent: { country: 'kp' } }))).toEqual(['COUNTRY_BLOCKED']);
    expect(evaluate({ rules: blocked, intent: { country: 'KR' } }).decision).toBe('allow');
    expect(evaluate({ rules: blocked, intent: {} }).decision).toBe('allow');
  });

  it('name at most ten entries of a long allow-list in the message', () => {
    const categories = Array.from({ length: 12 }, (_, i) => `c${i + 1}`);
    const result = evaluate({ rules: { allowedCategories: categories }, intent: { category: 'other' } });
    expect(result.fired[0]?.message).toBe(
      'Policy "Test policy" allows only the categories c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 and 2 more; this payment\'s category is "other".',
    );
  });
});

describe('merchant rules by address and by verified host', () => {
  const PAYEE = '0x52908400098527886E0F7030069857D2E4169EE7';
  const OTHER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

  it('allow a payment to a listed address whatever the case of either, judged by where the money goes', () => {
    const rules = { allowedMerchants: [PAYEE.toLowerCase()] };
    expect(evaluate({ rules, intent: { toAddress: PAYEE, merchant: 'anything.example', merchantVerified: false } }).decision).toBe('allow');
    expect(evaluate({ rules: { allowedMerchants: [PAYEE] }, intent: { toAddress: PAYEE.toLowerCase() } }).decision).toBe('allow');
    const elsewhere = evaluate({ rules, intent: { toAddress: OTHER, merchant: PAYEE } });
    expect(elsewhere.fired).toEqual([
      {
        rule: 'allowedMerchants',
        outcome: 'deny',
        code: 'MERCHANT_NOT_ALLOWED',
        message: `Policy "Test policy" allows only the merchants ${PAYEE.toLowerCase()}; this payment pays ${OTHER}.`,
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
    expect(evaluate({ rules, intent: { toAddress: null } }).fired[0]?.message).toBe(
      `Policy "Test policy" allows only the merchants ${PAYEE.toLowerCase()}; this payment names no payee address.`,
    );
  });

  it('block a payment to a listed address whatever the case, even when the merchant it names is allowed', () => {
    const rules = { allowedMerchants: ['api.example.com'], blockedMerchants: [PAYEE.toLowerCase()] };
    const blocked = evaluate({ rules, intent: { merchant: 'api.example.com', toAddress: PAYEE } });
    expect(blocked.fired).toEqual([
      {
        rule: 'blockedMerchants',
        outcome: 'deny',
        code: 'MERCHANT_BLOCKED',
        message: `Policy "Test policy" blocks the address ${PAYEE}, which this payment pays.`,
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
    expect(evaluate({ rules, intent: { merchant: 'api.example.com', toAddress: OTHER } }).decision).toBe('allow');
    expect(codes(evaluate({ rules: { blockedMerchants: [PAYEE] }, intent: { merchant: PAYEE.toLowerCase() } }))).toEqual(['MERCHANT_BLOCKED']);
  });

  it("refuse a host on an allow-list that is only the agent's claim, and say the owner can allow the seller's address", () => {
    const rules = { allowedMerchants: ['api.example.com'] };
    const claimed = evaluate({ rules, intent: { merchant: 'api.example.com', toAddress: PAYEE, merchantVerified: false } });
    expect(claimed.decision).toBe('deny');
    expect(claimed.fired).toEqual([
      {
        rule: 'allowedMerchants',
        outcome: 'deny',
        code: 'MERCHANT_NOT_ALLOWED',
        message:
          'Policy "Test policy" allows only the merchants api.example.com; this payment\'s merchant "api.example.com" is the agent\'s claim, ' +
          `not a URL Purser fetched, so it cannot satisfy a host entry; the owner can allow the seller's address ${PAYEE} instead.`,
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
  });

  it('allow a listed host that Purser fetched itself, as it allows an intent whose merchant is not marked either way', () => {
    const rules = { allowedMerchants: ['api.example.com'] };
    expect(evaluate({ rules, intent: { merchant: 'API.example.com.', toAddress: PAYEE, merchantVerified: true } }).decision).toBe('allow');
    expect(evaluate({ rules, intent: { merchant: 'api.example.com:8443', toAddress: PAYEE } }).decision).toBe('allow');
    expect(codes(evaluate({ rules: { allowedMerchants: ['api.example.com:443'] }, intent: { merchant: 'api.example.com:8443' } }))).toEqual([
      'MERCHANT_NOT_ALLOWED',
    ]);
  });

  it("block a host on a block-list even when it is only the agent's claim", () => {
    const result = evaluate({ rules: { blockedMerchants: ['casino.example'] }, intent: { merchant: 'casino.example', toAddress: PAYEE, merchantVerified: false } });
    expect(result.fired).toEqual([
      {
        rule: 'blockedMerchants',
        outcome: 'deny',
        code: 'MERCHANT_BLOCKED',
        message: 'Policy "Test policy" blocks the merchant "casino.example".',
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
  });

  it('let a mixed allow-list pass a listed address or a listed fetched host, and nothing else', () => {
    const rules = { allowedMerchants: ['api.example.com', PAYEE] };
    expect(evaluate({ rules, intent: { merchant: 'seller.example', toAddress: PAYEE, merchantVerified: false } }).decision).toBe('allow');
    expect(evaluate({ rules, intent: { merchant: 'api.example.com', toAddress: OTHER, merchantVerified: true } }).decision).toBe('allow');
    const claimed = evaluate({ rules, intent: { merchant: 'api.example.com', toAddress: OTHER, merchantVerified: false } });
    expect(claimed.fired[0]).toMatchObject({ code: 'MERCHANT_NOT_ALLOWED', message: expect.stringContaining(`the agent's claim, not a URL Purser fetched`) });
    const neither = evaluate({ rules, intent: { merchant: 'seller.example', toAddress: OTHER } });
    expect(neither.fired[0]?.message).toBe(
      `Policy "Test policy" allows only the merchants api.example.com, ${PAYEE}; this payment's merchant is "seller.example" and it pays ${OTHER}.`,
    );
  });
});

describe('time windows', () => {
  const weekdays = { timeWindows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }] };

  it('allow a payment from the start of a window and refuse one at its end', () => {
    const on = (time: string): string => evaluate({ rules: weekdays, at: new Date(`2025-01-15T${time}:00Z`) }).decision;
    expect(on('08:59')).toBe('deny');
    expect(on('09:00')).toBe('allow');
    expect(on('16:59')).toBe('allow');
    expect(on('17:00')).toBe('deny');
  });

  it('refuse a payment on a day the window does not list, naming the local time', () => {
    const saturday = evaluate({ rules: weekdays, at: new Date('2025-01-18T12:00:00Z'), timeZone: 'Europe/Paris' });
    expect(saturday.fired).toEqual([
      {
        rule: 'timeWindows',
        outcome: 'deny',
        code: 'OUTSIDE_TIME_WINDOW',
        message: 'Policy "Test policy" allows payments only Mon, Tue, Wed, Thu, Fri 09:00-17:00 (Europe/Paris); it is Saturday 13:00 there.',
        policyId: 'policy-1',
        shadow: false,
      },
    ]);
  });

  it('run a window that crosses midnight into the next day, from the days it starts on', () => {
    const fridayNight = { timeWindows: [{ days: ['fri'], start: '22:00', end: '02:00' }] };
    const on = (iso: string): string => evaluate({ rules: fridayNight, at: new Date(iso) }).decision;
    expect(on('2025-01-17T21:59:00Z')).toBe('deny'); // Friday 21:59
    expect(on('2025-01-17T22:00:00Z')).toBe('allow'); // Friday 22:00
    expect(on('2025-01-18T00:00:00Z')).toBe('allow'); // Saturday 00:00
    expect(on('2025-01-18T01:59:00Z')).toBe('allow'); // Saturday 01:59
    expect(on('2025-01-18T02:00:00Z')).toBe('deny'); // Saturday 02:00
    expect(on('2025-01-16T23:00:00Z')).toBe('deny'); // Thursday 23:00: Thursday is not listed
    expect(on('2025-01-19T01:00:00Z')).toBe('deny'); // Sunday 01:00: Saturday is not listed
  });

  it('run a Sunday night window into Monday across the end of the week', () => {
    const sundayNight = { timeWindows: [{ days: ['sun'], start: '23:00', end: '01:00' }] };
    expect(evaluate({ rules: sundayNight, at: new Date('2025-01-20T00:30:00Z') }).decision).toBe('allow');
    expect(evaluate({ rules: sundayNight, at: new Date('2025-01-20T01:00:00Z') }).decision).toBe('deny');
  });

  it('read the window in the owner time zone when the UTC day differs', () => {
    // Sunday 5 January 23:30 UTC is Monday 08:30 in Tokyo; 00:00 UTC is Monday 09:00 there.
    expect(evaluate({ rules: weekdays, at: new Date('2025-01-05T23:30:00Z'), timeZone: 'Asia/Tokyo' }).decision).toBe('deny');
    expect(evaluate({ rules: weekdays, at: new Date('2025-01-06T00:00:00Z'), timeZone: 'Asia/Tokyo' }).decision).toBe('allow');
    expect(evaluate({ rules: weekdays, at: new Date('2025-01-06T00:00:00Z'), timeZone: 'UTC' }).decision).toBe('deny');
    // Saturday 02:00 UTC is still Friday 18:00 in Los Angeles.
    const lateFriday = { timeWindows: [{ days: ['fri'], start: '09:00', end: '19:00' }] };
    expect(evaluate({ rules: lateFriday, at: new Date('2025-01-18T02:00:00Z'), timeZone: 'America/Los_Angeles' }).decision).toBe('allow');
    expect(evaluate({ rules: lateFriday, at: new Date('2025-01-18T02:00:00Z'), timeZone: 'UTC' }).decision).toBe('deny');
  });

  it('follow daylight saving time in the owner time zone', () => {
    // 07:30 UTC is 08:30 in Paris in winter and 09:30 in summer.
    expect(evaluate({ rules: weekdays, at: new Date('2025-01-15T07:30:00Z'), timeZone: 'Europe/Paris' }).decision).toBe('deny');
    expect(evaluate({ rules: weekdays, at: new Date('2025-06-18T07:30:00Z'), timeZone: 'Europe/Paris' }).decision).toBe('allow');
  });

  it('allow a payment inside any one of several windows, and all day with 00:00 to 24:00', () => {
    const rules = {
      timeWindows: [
        { days: ['mon'], start: '09:00', end: '10:00' },
        { days: ['wed'], start: '00:00', end: '24:00' },
      ],
    };
    expect(evaluate({ rules, at: new Date('2025-01-15T00:00:00Z') }).decision).toBe('allow');
    expect(evaluate({ rules, at: new Date('2025-01-15T23:59:00Z') }).decision).toBe('allow');
    expect(evaluate({ rules, at: new Date('2025-01-16T00:00:00Z') }).decision).toBe('deny');
  });
});

describe('the decision', () => {
  it('is allow with nothing reported when no rule fires', () => {
    expect(evaluate({ rules: { maxPerTransaction: 100, allowedCategories: ['compute'] }, intent: { category: 'compute' } })).toEqual({
      decision: 'allow',
      fired: [],
      shadow: [],
      timeBoxMs: null,
    });
  });

  it('reports every rule that fires, not only the first', () => {
    const result = evaluate({
      agent: { kyaTier: 'basic', spendingRules: { maxTransactionAmount: $(100), maxDailyLimit: $(200), approvalThreshold: $(50) } },
      intent: { amount: $(150), category: 'gambling', merchant: 'casino.example', country: 'KP' },
      usage: { spentInWindow: $(100), spentThisMonth: $(900) },
      at: new Date('2025-01-18T12:00:00Z'),
      rules: {
        maxPerTransaction: 120,
        dailyLimit: 200,
        monthlyBudget: 1_000,
        approvalThreshold: 20,
        blockedCategories: ['gambling'],
        allowedMerchants: ['api.example.com'],
        blockedCountries: ['KP'],
        timeWindows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
      },
    });
    expect(result.decision).toBe('deny');
    expect(result.fired.map((entry) => [entry.rule, entry.code])).toEqual([
      ['agent.maxTransactionAmount', 'MAX_PER_TRANSACTION_EXCEEDED'],
      ['agent.maxDailyLimit', 'DAILY_LIMIT_EXCEEDED'],
      ['agent.approvalThreshold', 'APPROVAL_THRESHOLD_EXCEEDED'],
      ['kyaTierCap.perTransaction', 'KYA_TIER_CAP_EXCEEDED'],
      ['maxPerTransaction', 'MAX_PER_TRANSACTION_EXCEEDED'],
      ['dailyLimit', 'DAILY_LIMIT_EXCEEDED'],
      ['monthlyBudget', 'MONTHLY_BUDGET_EXCEEDED'],
      ['approvalThreshold', 'APPROVAL_THRESHOLD_EXCEEDED'],
      ['blockedCategories', 'CATEGORY_BLOCKED'],
      ['allowedMerchants', 'MERCHANT_NOT_ALLOWED'],
      ['blockedCountries', 'COUNTRY_BLOCKED'],
      ['timeWindows', 'OUTSIDE_TIME_WINDOW'],
    ]);
  });

  it('is deny when a rule denies and another asks for approval, with both reported', () => {
    const result = evaluate({ rules: { approvalThreshold: 5, blockedCategories: ['ads'] }, intent: { amount: $(10), category: 'ads' } });
    expect(result.decision).toBe('deny');
    expect(result.fired.map((entry) => entry.outcome)).toEqual(['require_approval', 'deny']);
  });

  it('is require_approval when rules only ask for approval', () => {
    const result = evaluate({ agent: { spendingRules: { approvalThreshold: $(5) } }, rules: { approvalThreshold: 8 }, intent: { amount: $(10) } });
    expect(result.decision).toBe('require_approval');
    expect(codes(result)).toEqual(['APPROVAL_THRESHOLD_EXCEEDED', 'APPROVAL_THRESHOLD_EXCEEDED']);
  });

  it('uses only the stable codes', () => {
    expect(POLICY_RULE_CODES).toEqual([
      'MAX_PER_TRANSACTION_EXCEEDED',
      'DAILY_LIMIT_EXCEEDED',
      'MONTHLY_BUDGET_EXCEEDED',
      'CATEGORY_NOT_ALLOWED',
      'CATEGORY_BLOCKED',
      'MERCHANT_NOT_ALLOWED',
      'MERCHANT_BLOCKED',
      'COUNTRY_NOT_ALLOWED',
      'COUNTRY_BLOCKED',
      'OUTSIDE_TIME_WINDOW',
      'APPROVAL_THRESHOLD_EXCEEDED',
      'KYA_TIER_CAP_EXCEEDED',
      'KYA_TIER_TOO_LOW',
      'KYA_ESCALATION_REQUIRED',
      'CONNECTION_CAP_EXCEEDED',
      'SESSION_NOT_OPEN',
      'SESSION_OUT_OF_SCOPE',
      'SESSION_PER_PAYMENT_EXCEEDED',
      'SESSION_BUDGET_EXCEEDED',
    ]);
  });
});

describe('shadow policies', () => {
  it('are reported but never change the decision', () => {
    const shadow = policy({ maxPerTransaction: 5 }, { id: 'trial', name: 'Trial cap', version: 3, shadow: true });
    const result = evaluate({ policies: [shadow], intent: { amount: $(10) } });
    expect(result.decision).toBe('allow');
    const entry = {
      rule: 'maxPerTransaction',
      outcome: 'deny',
      code: 'MAX_PER_TRANSACTION_EXCEEDED',
      message: 'Policy "Trial cap" allows at most $5.00 per payment; this payment is $10.00.',
      policyId: 'trial',
      shadow: true,
    };
    expect(result.fired).toEqual([entry]);
    expect(result.shadow).toEqual([{ policyId: 'trial', name: 'Trial cap', version: 3, decision: 'deny', fired: [entry] }]);
  });

  it('report what they would decide alongside the enforced policies', () => {
    const enforced = policy({ approvalThreshold: 5 }, { id: 'enforced', name: 'Enforced' });
    const quiet = policy({ allowedCategories: ['compute'] }, { id: 'quiet', name: 'Quiet', shadow: true });
    const result = evaluate({ policies: [enforced, quiet], intent: { amount: $(10), category: 'compute' } });
    expect(result.decision).toBe('require_approval');
    expect(result.shadow).toHaveLength(1);
    expect(result.shadow[0]).toMatchObject({ policyId: 'quiet', decision: 'require_approval' });
    expect(result.shadow[0]?.fired.map((entry) => [entry.policyId, entry.shadow])).toEqual([['enforced', false]]);
    expect(result.fired.map((entry) => entry.policyId)).toEqual(['enforced']);
  });

  it('show what a kyaEscalation would do without doing it', () => {
    const escalation = policy({ kyaEscalation: 'basic' }, { id: 'escalate', name: 'Escalate', shadow: true });
    const result = evaluate({
      agent: { kyaTier: 'pseudonymous', spendingRules: { maxTransactionAmount: $(100) } },
      policies: [escalation],
      intent: { amount: $(20) },
    });
    expect(result.decision).toBe('deny');
    expect(result.fired.map((entry) => [entry.code, entry.shadow])).toEqual([
      ['KYA_TIER_CAP_EXCEEDED', false],
      ['KYA_ESCALATION_REQUIRED', true],
    ]);
    expect(result.shadow[0]?.decision).toBe('require_approval');
  });
});

describe('the time box', () => {
  it('is the shortest of the enforced policies, shadow ones left out', () => {
    const result = evaluate({
      policies: [
        policy({ timeBox: '24h' }, { id: 'a' }),
        policy({ timeBox: '2h' }, { id: 'b' }),
        policy({ timeBox: '30m' }, { id: 'c', shadow: true }),
      ],
    });
    expect(result.timeBoxMs).toBe(2 * 3_600_000);
  });
});

describe('evaluatePolicy inputs', () => {
  it('refuses a payment of zero or less', () => {
    expect(() => evaluate({ intent: { amount: 0n } })).toThrow(AppError);
    expect(() => evaluate({ intent: { amount: -1n } })).toThrow('Payment amount must be greater than zero');
  });

  it('refuses negative usage and negative spending rules', () => {
    expect(() => evaluate({ usage: { spentInWindow: -1n } })).toThrow('Usage must not be negative');
    expect(() => evaluate({ agent: { spendingRules: { approvalThreshold: -1n } } })).toThrow('Spending rules must not be negative');
  });

  it('refuses an unknown time zone even when no policy has a time window', () => {
    expect(() => evaluate({ timeZone: 'Europe/Atlantis' })).toThrow('Unknown time zone "Europe/Atlantis"');
  });

  it('never reads the clock and gives the same answer for the same input', () => {
    vi.spyOn(Date, 'now').mockImplementation(() => {
      throw new Error('the policy engine must not read the clock');
    });
    const scenario: Scenario = {
      rules: { timeWindows: [{ days: ['wed'], start: '09:00', end: '17:00' }], monthlyBudget: 100 },
      usage: { spentThisMonth: $(95) },
      timeZone: 'Asia/Kolkata',
    };
    expect(evaluate(scenario)).toEqual(evaluate(scenario));
    expect(codes(evaluate(scenario))).toEqual(['MONTHLY_BUDGET_EXCEEDED', 'OUTSIDE_TIME_WINDOW']);
  });
});

describe('hosts Purser may sign for (hostRefusal)', () => {
  it('refuses a blocked host whatever its case, trailing dot or port, and names the policy', () => {
    const policies = [policy({ blockedMerchants: ['casino.example'] }, { name: 'No casinos' })];
    for (const host of ['casino.example', 'CASINO.example.', 'casino.example:8443']) {
      expect(hostRefusal(policies, host), host).toEqual({ code: 'MERCHANT_BLOCKED', message: `Policy "No casinos" blocks the host ${host}.` });
    }
    expect(hostRefusal(policies, 'api.example.com')).toBeNull();
  });

  it('refuses a host an allow-list of hosts does not name, and lets an allow-list of addresses only judge payments', () => {
    const hosts = [policy({ allowedMerchants: ['api.example.com', '0x1111111111111111111111111111111111111111'] })];
    expect(hostRefusal(hosts, 'api.example.com')).toBeNull();
    expect(hostRefusal(hosts, 'other.example')?.code).toBe('MERCHANT_NOT_ALLOWED');
    expect(hostRefusal(hosts, 'other.example')?.message).toBe('Policy "Test policy" allows only the hosts api.example.com; other.example is not one of them.');
    expect(hostRefusal([policy({ allowedMerchants: ['0x1111111111111111111111111111111111111111'] })], 'other.example')).toBeNull();
  });

  it('ignores shadow policies', () => {
    expect(hostRefusal([policy({ blockedMerchants: ['casino.example'] }, { shadow: true })], 'casino.example')).toBeNull();
  });
});
