/**
 * The policy and KYA gate of a payment: a pure function of the intent, the agent, the owner's
 * policies, the usage the caller summed and the evaluation time. No I/O and no clock, so the
 * payment workflow can run it deterministically, and the x402 signing path before any signature.
 *
 * Every rule that fires is reported, not only the first, so an owner sees the whole picture.
 * deny beats require_approval beats allow. The agent's spending rules and its KYA tier's caps
 * always apply; enforced policies add rules on top, so the strictest wins. Shadow policies are
 * evaluated and reported but never change the decision.
 */
import { AppError } from '../errors';
import { type KyaTier, compareTiers, lowestTierFor, tierCaps } from '../kya';
import { type Currency, DECIMALS, UNITS_PER_DOLLAR } from '../money';
import { EVM_ADDRESS_PATTERN, type PolicyRules, type TimeWindow } from './policy-rules';
import { DAYS_OF_WEEK, MINUTES_PER_DAY, type ZonedTime, minuteOfWeek, zonedTime } from './zoned-time';

export const POLICY_RULE_CODES = [
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
] as const;
export type PolicyRuleCode = (typeof POLICY_RULE_CODES)[number];

export type PolicyDecision = 'allow' | 'require_approval' | 'deny';
export type PolicyOutcome = Exclude<PolicyDecision, 'allow'>;

export interface PolicyIntent {
  /** Atomic units, greater than zero. */
  amount: bigint;
  currency: Currency;
  category?: string | null;
  /** Who is paid, by name or host: matched by the host and name entries of merchant rules. */
  merchant?: string | null;
  /** Where the money goes (an EVM address): matched by the address entries of merchant rules. */
  toAddress?: string | null;
  /**
   * False when `merchant` is only the agent's word (an x402 URL Purser did not fetch itself):
   * it then never satisfies a host entry of an allow-list, though it is still blocked by one.
   * Defaults to true.
   */
  merchantVerified?: boolean;
  /** ISO 3166-1 alpha-2, any case (the intent's geography). */
  country?: string | null;
  /** The lowest KYA tier the intent asks the paying agent to hold. */
  kyaTier?: KyaTier | null;
  /** The rail (core's RAIL_NAMES) and, for a paid HTTP call, the protocol (x402, mpp): a session's scope may name them. */
  rail?: string | null;
  protocol?: string | null;
}

export interface PolicyAgent {
  kyaTier: KyaTier;
  /** The agent's own limits, atomic units; a null threshold never asks for approval. */
  spendingRules: { maxTransactionAmount: bigint; maxDailyLimit: bigint; approvalThreshold: bigint | null };
}

export interface PolicyDocument {
  id: string;
  name: string;
  version: number;
  rules: PolicyRules;
  /** Evaluated and reported, never enforced: how an owner tries a policy before switching it on. */
  shadow: boolean;
}

export interface PolicyUsage {
  /**
   * Spent in the rolling 24 hours before `at`, atomic units, pending and held payments
   * included (see usageWindows for the boundary).
   */
  spentInWindow: bigint;
  /** Spent in the calendar month of `at` in the owner's time zone, atomic units. */
  spentThisMonth: bigint;
}

/**
 * The OAuth connection a payment is made through (issue 42): its owner's cap, and what was spent
 * through it so far (held or paid, atomic units). The cap only narrows the agent's own rules.
 */
export interface PolicyConnection {
  capUnits: bigint;
  spentUnits: bigint;
}

/**
 * The payment session a payment is charged to (issue 43): its state, what was spent from it (held
 * or paid, atomic units) and what it may pay for. The session only narrows the agent's rules.
 */
export interface PolicySession {
  status: 'requested' | 'open' | 'rejected' | 'closed';
  expiresAt: Date;
  totalUnits: bigint;
  perPaymentUnits: bigint | null;
  spentUnits: bigint;
  /** Lists left out or empty do not narrow it; sellers are host names or addresses, lower-case. */
  scope: { sellers?: readonly string[]; categories?: readonly string[]; protocols?: readonly string[]; rails?: readonly string[] };
}

export interface PolicyInput {
  intent: PolicyIntent;
  agent: PolicyAgent;
  /** The capped OAuth connection the payment is made through; absent for any other payment. */
  connection?: PolicyConnection | null;
  /** The payment session the payment is charged to; absent for any other payment. */
  session?: PolicySession | null;
  /** The enabled policies that apply to this agent, enforced and shadow, in a stable order. */
  policies: readonly PolicyDocument[];
  usage: PolicyUsage;
  /** The evaluation time; the engine never reads a clock. */
  at: Date;
  /** The owner's IANA time zone, for time windows and the calendar month. */
  timeZone: string;
}

export interface FiredRule {
  /** The check that fired, e.g. `maxPerTransaction` or `agent.maxDailyLimit`. */
  rule: string;
  outcome: PolicyOutcome;
  code: PolicyRuleCode;
  /** A sentence with the figures in dollars, fit to show the owner or the agent. */
  message: string;
  /** The policy whose rule fired; absent for the agent's spending rules and its KYA tier caps. */
  policyId?: string;
  /** Fired by a shadow policy: reported, not enforced. */
  shadow: boolean;
}

export interface ShadowPolicyResult {
  policyId: string;
  name: string;
  version: number;
  /** The decision had this policy been enforced alongside the enforced ones. */
  decision: PolicyDecision;
  /** Every rule that would then have fired, this policy's marked shadow. */
  fired: FiredRule[];
}

export interface PolicyEvaluation {
  decision: PolicyDecision;
  /** Every rule that fired: enforced ones first, then those of shadow policies (shadow: true). */
  fired: FiredRule[];
  shadow: ShadowPolicyResult[];
  /** The shortest time box of the enforced policies: how long an approval may wait; null when none sets one. */
  timeBoxMs: number | null;
}

export function evaluatePolicy(input: PolicyInput): PolicyEvaluation {
  assertInput(input);
  const local = zonedTime(input.at, input.timeZone);
  const enforced = input.policies.filter((policy) => !policy.shadow);
  const fired = evaluateWith(input, local, enforced, null);
  const shadow: ShadowPolicyResult[] = [];
  for (const policy of input.policies) {
    if (!policy.shadow) continue;
    const wouldFire = evaluateWith(input, local, [...enforced, policy], policy.id);
    shadow.push({ policyId: policy.id, name: policy.name, version: policy.version, decision: decide(wouldFire), fired: wouldFire });
    fired.push(...wouldFire.filter((entry) => entry.shadow));
  }
  return {
    decision: decide(fired.filter((entry) => !entry.shadow)),
    fired,
    shadow,
    timeBoxMs: shortestTimeBox(enforced),
  };
}

function decide(fired: readonly FiredRule[]): PolicyDecision {
  if (fired.some((entry) => entry.outcome === 'deny')) return 'deny';
  if (fired.some((entry) => entry.outcome === 'require_approval')) return 'require_approval';
  return 'allow';
}

function shortestTimeBox(policies: readonly PolicyDocument[]): number | null {
  let shortest: number | null = null;
  for (const policy of policies) {
    const ms = policy.rules.timeBox?.milliseconds;
    if (ms !== undefined && (shortest === null || ms < shortest)) shortest = ms;
  }
  return shortest;
}

function assertInput({ intent, agent, usage }: PolicyInput): void {
  if (intent.amount <= 0n) throw new AppError('INVALID_AMOUNT', 'Payment amount must be greater than zero');
  if (usage.spentInWindow < 0n || usage.spentThisMonth < 0n) throw new AppError('BAD_REQUEST', 'Usage must not be negative');
  const { maxTransactionAmount, maxDailyLimit, approvalThreshold } = agent.spendingRules;
  if (maxTransactionAmount < 0n || maxDailyLimit < 0n || (approvalThreshold !== null && approvalThreshold < 0n)) {
    throw new AppError('BAD_REQUEST', 'Spending rules must not be negative');
  }
}

/** The rules fired with `policies` enforced; entries of `shadowId` are marked shadow. */
function evaluateWith(input: PolicyInput, local: ZonedTime, policies: readonly PolicyDocument[], shadowId: string | null): FiredRule[] {
  const fired: FiredRule[] = [];
  const fire = (entry: Omit<FiredRule, 'shadow'>): void => {
    fired.push({ ...entry, shadow: entry.policyId !== undefined && entry.policyId === shadowId });
  };
  checkSpendingRules(input, fire);
  checkSession(input, fire);
  checkKya(input, policies, fire);
  for (const policy of policies) checkPolicy(input, local, policy, fire);
  return fired;
}

type Fire = (entry: Omit<FiredRule, 'shadow'>) => void;

function checkSpendingRules({ intent, agent, usage, connection }: PolicyInput, fire: Fire): void {
  const { amount } = intent;
  const rules = agent.spendingRules;
  const source = "The agent's spending rules";
  if (connection && connection.spentUnits + amount > connection.capUnits) {
    fire({
      rule: 'connection.cap',
      outcome: 'deny',
      code: 'CONNECTION_CAP_EXCEEDED',
      message:
        `This connection's spending cap is ${usd(connection.capUnits)}; ${usd(connection.spentUnits)} was spent through it, ` +
        `so this payment of ${usd(amount)} would make it ${usd(connection.spentUnits + amount)}.`,
    });
  }
  if (amount > rules.maxTransactionAmount) {
    fire({
      rule: 'agent.maxTransactionAmount',
      outcome: 'deny',
      code: 'MAX_PER_TRANSACTION_EXCEEDED',
      message: perTransactionMessage(`${source} allow`, rules.maxTransactionAmount, amount),
    });
  }
  if (usage.spentInWindow + amount > rules.maxDailyLimit) {
    fire({
      rule: 'agent.maxDailyLimit',
      outcome: 'deny',
      code: 'DAILY_LIMIT_EXCEEDED',
      message: dailyMessage(`${source} allow`, rules.maxDailyLimit, usage.spentInWindow, amount),
    });
  }
  if (rules.approvalThreshold !== null && amount > rules.approvalThreshold) {
    fire({
      rule: 'agent.approvalThreshold',
      outcome: 'require_approval',
      code: 'APPROVAL_THRESHOLD_EXCEEDED',
      message: `${source} send payments above ${usd(rules.approvalThreshold)} to the owner for approval; this payment is ${usd(amount)}.`,
    });
  }
}

/** A payment charged to a session: the session open at `at`, the payment in its scope, its caps kept. */
function checkSession({ intent, session, at }: PolicyInput, fire: Fire): void {
  if (!session) return;
  const { amount } = intent;
  if (session.status !== 'open' || session.expiresAt.getTime() <= at.getTime()) {
    const state = session.status === 'open' ? 'has expired' : session.status === 'requested' ? 'waits for the owner' : `is ${session.status}`;
    fire({ rule: 'session.open', outcome: 'deny', code: 'SESSION_NOT_OPEN', message: `The payment session ${state}: nothing can be charged to it.` });
    return;
  }
  const outside = sessionScopeMisses(session.scope, intent);
  if (outside) fire({ rule: 'session.scope', outcome: 'deny', code: 'SESSION_OUT_OF_SCOPE', message: `The payment session does not cover this payment: ${outside}.` });
  if (session.perPaymentUnits !== null && amount > session.perPaymentUnits) {
    fire({ rule: 'session.perPayment', outcome: 'deny', code: 'SESSION_PER_PAYMENT_EXCEEDED', message: perTransactionMessage('The payment session allows', session.perPaymentUnits, amount) });
  }
  if (session.spentUnits + amount > session.totalUnits) {
    fire({
      rule: 'session.total',
      outcome: 'deny',
      code: 'SESSION_BUDGET_EXCEEDED',
      message: `The payment session's budget is ${usd(session.totalUnits)}; ${usd(session.spentUnits)} was spent from it, so this payment of ${usd(amount)} would make it ${usd(session.spentUnits + amount)}.`,
    });
  }
}

/** What of the payment a session's scope does not cover, or null when it covers all of it. */
export function sessionScopeMisses(scope: PolicySession['scope'], intent: PolicyIntent): string | null {
  const listed = (list: readonly string[] | undefined) => list !== undefined && list.length > 0;
  if (listed(scope.sellers)) {
    const sellers = new Set(scope.sellers);
    const host = intent.merchantVerified === false ? null : normalisedHost(intent.merchant);
    const address = intent.toAddress?.toLowerCase() ?? null;
    if (!(host && sellers.has(host)) && !(address && sellers.has(address))) return `it pays ${intent.merchant ?? intent.toAddress ?? 'an unnamed seller'}, not one of ${listText(scope.sellers!)}`;
  }
  if (listed(scope.categories) && !scope.categories!.includes(intent.category ?? '')) return `its category is ${intent.category ?? 'not set'}, not one of ${listText(scope.categories!)}`;
  if (listed(scope.rails) && !scope.rails!.includes(intent.rail ?? '')) return `it goes on ${intent.rail ?? 'no rail yet'}, not one of ${listText(scope.rails!)}`;
  if (listed(scope.protocols) && !scope.protocols!.includes(intent.protocol ?? '')) return `it is paid in ${intent.protocol ?? 'no HTTP payment protocol'}, not one of ${listText(scope.protocols!)}`;
  return null;
}

/** A merchant named by host (with or without a port) or URL: its host name, lower-case. */
function normalisedHost(merchant: string | null | undefined): string | null {
  if (!merchant) return null;
  const text = merchant.trim().toLowerCase();
  if (/^https?:\/\//.test(text) && URL.canParse(text)) return new URL(text).hostname;
  return text.replace(/:\d+$/, '');
}

/**
 * The agent's tier caps always apply. A payment above them is refused unless an enforced
 * policy names a kyaEscalation tier whose caps cover it: then the owner's approval stands in
 * for the assurance the agent lacks. With several such policies the lowest tier binds.
 */
function checkKya({ intent, agent, usage }: PolicyInput, policies: readonly PolicyDocument[], fire: Fire): void {
  const tier = agent.kyaTier;
  const caps = tierCaps(tier);
  const { amount } = intent;
  const escalation = lowestEscalation(policies);
  const escalationAbove = escalation && compareTiers(escalation.tier, tier) > 0 ? escalation : null;
  const source = `The agent's KYA tier ${tier}`;

  const escalated = (rule: string, limitText: string, covered: string): void => {
    if (!escalationAbove) return;
    fire({
      rule,
      outcome: 'require_approval',
      code: 'KYA_ESCALATION_REQUIRED',
      message: `${limitText}${covered} Policy "${escalationAbove.policy.name}" escalates up to the ${escalationAbove.tier} tier, so the owner must approve it.`,
      policyId: escalationAbove.policy.id,
    });
  };
  const within = (cap: bigint): string => ` That is within the ${escalationAbove?.tier} tier's cap of ${usd(cap)}.`;
  const refusedNote = (): string =>
    escalation ? ` Policy "${escalation.policy.name}" escalates only up to the ${escalation.tier} tier, which does not cover it.` : '';
  const needs = (needed: KyaTier | null): string =>
    needed ? ` It needs at least the ${needed} tier.` : ' It is above the caps of every tier.';

  if (amount > caps.perTransaction) {
    const limitText = perTransactionMessage(`${source} allows`, caps.perTransaction, amount);
    const escalationCap = escalationAbove ? tierCaps(escalationAbove.tier).perTransaction : null;
    if (escalationCap !== null && amount <= escalationCap) {
      escalated('kyaTierCap.perTransaction', limitText, within(escalationCap));
    } else {
      fire({
        rule: 'kyaTierCap.perTransaction',
        outcome: 'deny',
        code: 'KYA_TIER_CAP_EXCEEDED',
        message: `${limitText}${needs(lowestTierFor(amount, 0n))}${refusedNote()}`,
      });
    }
  }

  const total = usage.spentInWindow + amount;
  if (total > caps.perDay) {
    const limitText = dailyMessage(`${source} allows`, caps.perDay, usage.spentInWindow, amount);
    const escalationCap = escalationAbove ? tierCaps(escalationAbove.tier).perDay : null;
    if (escalationCap !== null && total <= escalationCap) {
      escalated('kyaTierCap.perDay', limitText, within(escalationCap));
    } else {
      fire({
        rule: 'kyaTierCap.perDay',
        outcome: 'deny',
        code: 'KYA_TIER_CAP_EXCEEDED',
        message: `${limitText}${needs(lowestTierFor(amount, usage.spentInWindow))}${refusedNote()}`,
      });
    }
  }

  const requested = intent.kyaTier;
  if (requested && compareTiers(tier, requested) < 0) {
    const limitText = `The intent asks for an agent of KYA tier ${requested} or above; this agent is ${tier}.`;
    if (escalationAbove && compareTiers(escalationAbove.tier, requested) >= 0) {
      escalated('intent.kyaTier', limitText, '');
    } else {
      fire({ rule: 'intent.kyaTier', outcome: 'deny', code: 'KYA_TIER_TOO_LOW', message: `${limitText}${refusedNote()}` });
    }
  }
}

function lowestEscalation(policies: readonly PolicyDocument[]): { tier: KyaTier; policy: PolicyDocument } | null {
  let lowest: { tier: KyaTier; policy: PolicyDocument } | null = null;
  for (const policy of policies) {
    const tier = policy.rules.kyaEscalation;
    if (tier && (!lowest || compareTiers(tier, lowest.tier) < 0)) lowest = { tier, policy };
  }
  return lowest;
}

function checkPolicy({ intent, usage, timeZone }: PolicyInput, local: ZonedTime, policy: PolicyDocument, fire: Fire): void {
  const { rules } = policy;
  const { amount } = intent;
  const source = `Policy "${policy.name}"`;
  const policyId = policy.id;

  if (rules.maxPerTransaction !== undefined && amount > rules.maxPerTransaction) {
    fire({
      rule: 'maxPerTransaction',
      outcome: 'deny',
      code: 'MAX_PER_TRANSACTION_EXCEEDED',
      message: perTransactionMessage(`${source} allows`, rules.maxPerTransaction, amount),
      policyId,
    });
  }
  if (rules.dailyLimit !== undefined && usage.spentInWindow + amount > rules.dailyLimit) {
    fire({
      rule: 'dailyLimit',
      outcome: 'deny',
      code: 'DAILY_LIMIT_EXCEEDED',
      message: dailyMessage(`${source} allows`, rules.dailyLimit, usage.spentInWindow, amount),
      policyId,
    });
  }
  if (rules.monthlyBudget !== undefined && usage.spentThisMonth + amount > rules.monthlyBudget) {
    fire({
      rule: 'monthlyBudget',
      outcome: 'deny',
      code: 'MONTHLY_BUDGET_EXCEEDED',
      message:
        `${source} has a monthly budget of ${usd(rules.monthlyBudget)}; ${usd(usage.spentThisMonth)} was spent this month ` +
        `(${timeZone}), so this payment of ${usd(amount)} would make it ${usd(usage.spentThisMonth + amount)}.`,
      policyId,
    });
  }
  if (rules.approvalThreshold !== undefined && amount > rules.approvalThreshold) {
    fire({
      rule: 'approvalThreshold',
      outcome: 'require_approval',
      code: 'APPROVAL_THRESHOLD_EXCEEDED',
      message: `${source} sends payments above ${usd(rules.approvalThreshold)} to the owner for approval; this payment is ${usd(amount)}.`,
      policyId,
    });
  }

  const names = { source, policyId, fire };
  checkNameList({ ...names, noun: 'category', plural: 'categories', field: 'Categories', code: 'CATEGORY', value: intent.category, allowed: rules.allowedCategories, blocked: rules.blockedCategories });
  checkMerchants(intent, rules, source, policyId, fire);
  checkNameList({ ...names, noun: 'country', plural: 'countries', field: 'Countries', code: 'COUNTRY', value: intent.country, allowed: rules.allowedCountries, blocked: rules.blockedCountries });

  if (rules.timeWindows && !rules.timeWindows.some((window) => isWithin(window, local))) {
    fire({
      rule: 'timeWindows',
      outcome: 'deny',
      code: 'OUTSIDE_TIME_WINDOW',
      message: `${source} allows payments only ${rules.timeWindows.map(windowText).join('; ')} (${timeZone}); it is ${localText(local)} there.`,
      policyId,
    });
  }
}

interface NameList {
  noun: string;
  plural: string;
  field: string;
  code: 'CATEGORY' | 'COUNTRY';
  value: string | null | undefined;
  allowed: readonly string[] | undefined;
  blocked: readonly string[] | undefined;
  source: string;
  policyId: string;
  fire: Fire;
}

/** Compared trimmed and lower-cased on both sides; a missing value is never on an allow-list. */
function checkNameList({ noun, plural, field, code, value, allowed, blocked, source, policyId, fire }: NameList): void {
  const key = normalise(value);
  if (allowed && (key === null || !allowed.some((entry) => normalise(entry) === key))) {
    fire({
      rule: `allowed${field}`,
      outcome: 'deny',
      code: `${code}_NOT_ALLOWED`,
      message:
        `${source} allows only the ${plural} ${listText(allowed)}; ` +
        (key === null ? `this payment names no ${noun}.` : `this payment's ${noun} is "${value?.trim()}".`),
      policyId,
    });
  }
  if (blocked && key !== null && blocked.some((entry) => normalise(entry) === key)) {
    fire({
      rule: `blocked${field}`,
      outcome: 'deny',
      code: `${code}_BLOCKED`,
      message: `${source} blocks the ${noun} "${value?.trim()}".`,
      policyId,
    });
  }
}

/**
 * Merchant entries are addresses or hosts (names). Address entries judge where the money goes,
 * `toAddress`. Host entries judge `merchant`; an allow-list trusts a host only when Purser
 * fetched the URL itself, because an agent can name any host while paying anyone. A block-list
 * honours the merchant even unverified: refusing on the agent's own claim is always safe.
 */
function checkMerchants(intent: PolicyIntent, rules: PolicyRules, source: string, policyId: string, fire: Fire): void {
  const { allowedMerchants: allowed, blockedMerchants: blocked } = rules;
  const merchantText = intent.merchant?.trim() || null;
  const addressText = intent.toAddress?.trim() || null;
  const host = merchantText === null ? null : hostKey(merchantText);
  const address = addressKey(addressText);
  const verified = intent.merchantVerified ?? true;

  if (allowed) {
    const entries = allowed.map(merchantEntry);
    const addressAllowed = address !== null && entries.some((entry) => entry.address === address);
    const hostListed = host !== null && entries.some((entry) => entry.host !== null && hostMatches(entry.host, host));
    if (!addressAllowed && !(hostListed && verified)) {
      const hasAddresses = entries.some((entry) => entry.address !== null);
      const hasHosts = entries.some((entry) => entry.host !== null);
      const payee = addressText ? `it pays ${addressText}` : 'it names no payee address';
      let detail: string;
      if (hostListed) {
        detail =
          `this payment's merchant "${merchantText}" is the agent's claim, not a URL Purser fetched, so it cannot satisfy a host entry; ` +
          `the owner can allow the seller's address${addressText ? ` ${addressText}` : ''} instead.`;
      } else if (!hasHosts) {
        detail = addressText ? `this payment pays ${addressText}.` : 'this payment names no payee address.';
      } else {
        const named = host === null ? 'this payment names no merchant' : `this payment's merchant is "${merchantText}"`;
        detail = hasAddresses ? `${named} and ${payee}.` : `${named}.`;
      }
      fire({ rule: 'allowedMerchants', outcome: 'deny', code: 'MERCHANT_NOT_ALLOWED', message: `${source} allows only the merchants ${listText(allowed)}; ${detail}`, policyId });
    }
  }

  if (blocked) {
    const entries = blocked.map(merchantEntry);
    const listed = (key: string | null): boolean => key !== null && entries.some((entry) => entry.address === key);
    const hostBlocked = host !== null && entries.some((entry) => entry.host !== null && hostMatches(entry.host, host));
    let message: string | null = null;
    if (listed(address)) message = `${source} blocks the address ${addressText}, which this payment pays.`;
    // A merchant named by a blocked address is refused too: refusing on the agent's word is safe.
    else if (hostBlocked || listed(addressKey(merchantText))) message = `${source} blocks the merchant "${merchantText}".`;
    if (message !== null) fire({ rule: 'blockedMerchants', outcome: 'deny', code: 'MERCHANT_BLOCKED', message, policyId });
  }
}

/**
 * Whether the owner's enforced policies let Purser sign for the agent towards `host` (an HTTP
 * message signature, a sign-in-with-x message): the host-entry half of the merchant rules. A
 * blocked host is refused; an allow-list that names hosts refuses every host it does not name.
 * An allow-list of addresses only says where money may go, not which hosts may be called.
 */
export function hostRefusal(policies: readonly PolicyDocument[], host: string): { code: 'MERCHANT_BLOCKED' | 'MERCHANT_NOT_ALLOWED'; message: string } | null {
  const key = hostKey(host);
  for (const policy of policies.filter((candidate) => !candidate.shadow)) {
    const blocked = (policy.rules.blockedMerchants ?? []).map(merchantEntry);
    if (blocked.some((entry) => entry.host !== null && hostMatches(entry.host, key))) {
      return { code: 'MERCHANT_BLOCKED', message: `Policy "${policy.name}" blocks the host ${host}.` };
    }
  }
  for (const policy of policies.filter((candidate) => !candidate.shadow)) {
    const allowed = policy.rules.allowedMerchants;
    if (!allowed) continue;
    const hosts = allowed.map(merchantEntry).flatMap((entry) => (entry.host === null ? [] : [entry.host]));
    if (hosts.length > 0 && !hosts.some((entry) => hostMatches(entry, key))) {
      return { code: 'MERCHANT_NOT_ALLOWED', message: `Policy "${policy.name}" allows only the hosts ${listText(hosts.map(hostText))}; ${host} is not one of them.` };
    }
  }
  return null;
}

function hostText(entry: HostKey): string {
  return entry.port === null ? entry.name : `${entry.name}:${entry.port}`;
}

interface HostKey {
  name: string;
  /** Null when the value names no port. */
  port: string | null;
}

type MerchantEntry = { address: string; host: null } | { address: null; host: HostKey };

function merchantEntry(entry: string): MerchantEntry {
  const address = addressKey(entry);
  return address !== null ? { address, host: null } : { address: null, host: hostKey(entry) };
}

/** Lower-cased, so a checksummed address and a lower-case one are the same payee. */
function addressKey(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed && EVM_ADDRESS_PATTERN.test(trimmed) ? trimmed.toLowerCase() : null;
}

/** A host or name, trimmed and lower-cased, without the root's trailing dot, its port apart. */
function hostKey(value: string): HostKey {
  const key = value.trim().toLowerCase();
  const withPort = /^(\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(key);
  const name = (withPort ? withPort[1] ?? '' : key).replace(/\.$/, '');
  return { name, port: withPort ? (withPort[2] ?? null) : null };
}

/** An entry without a port covers every port of its host; one with a port only that port. */
function hostMatches(entry: HostKey, merchant: HostKey): boolean {
  return entry.name === merchant.name && (entry.port === null || entry.port === merchant.port);
}

const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/** Inside a window: from its start on one of its days, for its length (past midnight when end < start). */
function isWithin(window: TimeWindow, local: ZonedTime): boolean {
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  const length = end > start ? end - start : end + MINUTES_PER_DAY - start;
  const now = minuteOfWeek(local);
  return window.days.some((day) => {
    const opens = DAYS_OF_WEEK.indexOf(day) * MINUTES_PER_DAY + start;
    return (((now - opens) % MINUTES_PER_WEEK) + MINUTES_PER_WEEK) % MINUTES_PER_WEEK < length;
  });
}

function minutesOf(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

function normalise(value: string | null | undefined): string | null {
  const trimmed = value?.trim().toLowerCase();
  return trimmed ? trimmed : null;
}

const DAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const FULL_DAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

function windowText(window: TimeWindow): string {
  const days = window.days.length === 7 ? 'every day' : window.days.map((day) => DAY_LABELS[DAYS_OF_WEEK.indexOf(day)]).join(', ');
  return `${days} ${window.start}-${window.end}`;
}

function localText(local: ZonedTime): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${FULL_DAY_LABELS[DAYS_OF_WEEK.indexOf(local.dayOfWeek)]} ${pad(local.hour)}:${pad(local.minute)}`;
}

const LISTED_IN_MESSAGES = 10;

function listText(entries: readonly string[]): string {
  const shown = entries.slice(0, LISTED_IN_MESSAGES).join(', ');
  return entries.length > LISTED_IN_MESSAGES ? `${shown} and ${entries.length - LISTED_IN_MESSAGES} more` : shown;
}

function perTransactionMessage(sourceWithVerb: string, limit: bigint, amount: bigint): string {
  return `${sourceWithVerb} at most ${usd(limit)} per payment; this payment is ${usd(amount)}.`;
}

function dailyMessage(sourceWithVerb: string, limit: bigint, spent: bigint, amount: bigint): string {
  return (
    `${sourceWithVerb} ${usd(limit)} in any 24 hours; ${usd(spent)} was spent in the last 24 hours, ` +
    `so this payment of ${usd(amount)} would make it ${usd(spent + amount)}.`
  );
}

/**
 * Dollars with thousands separators, at least two decimals and every significant one
 * ($1,000.00, $10.000001): at a limit's edge the two-decimal display would show equal figures.
 */
function usd(units: bigint): string {
  const whole = (units / UNITS_PER_DOLLAR).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (units % UNITS_PER_DOLLAR).toString().padStart(DECIMALS, '0').replace(/0+$/, '').padEnd(2, '0');
  return `$${whole}.${fraction}`;
}
