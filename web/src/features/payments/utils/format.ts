// Display formats of the payments pages: money with two decimals (full precision kept for a
// title when two decimals hide part of it), dates as 'MMM d, yyyy HH:mm' (spec section 9, the
// table format) in the viewer's time zone.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export interface AmountDisplay {
  /** Two decimals: '1,234.50'. */
  text: string;
  /** The full amount ('0.000125') when `text` rounds part of it away, else null. */
  exact: string | null;
}

/**
 * `amountExact` is the server's full-precision decimal string (up to 6 decimals). A micro-payment
 * of 0.000125 shows as '0.00' with the exact amount beside it for a title, never as a bare zero.
 */
export function amountDisplay(amountExact: string): AmountDisplay {
  const text = twoDecimals.format(Number(amountExact));
  const fraction = /\.(\d+)$/.exec(amountExact.trim())?.[1] ?? '';
  const hidden = fraction.slice(2).replace(/0+$/, '');
  return { text, exact: hidden ? amountExact.trim() : null };
}

/** '2025-10-18T09:05:00Z' -> 'Oct 18, 2025 09:05' (local time). */
export function formatTableDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** What a payment is, in a few words: its purpose, else its merchant, else its payee. */
export function paymentTitle(intent: { purpose: string; merchant: string | null; toAddress: string | null }): string {
  if (intent.purpose.trim()) return intent.purpose.trim();
  if (intent.merchant) return `Payment to ${intent.merchant}`;
  if (intent.toAddress) return `Payment to ${shortAddress(intent.toAddress)}`;
  return 'Payment';
}

/** '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' -> '0x7099…79C8'. */
export function shortAddress(address: string): string {
  return address.length <= 13 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * A policy engine rule in words: 'agent.approvalThreshold' -> 'Agent rules · Approval threshold',
 * 'monthlyBudget' of a policy -> 'Policy · Monthly budget', 'kyaTierCap.perDay' -> 'KYA cap · Per day'.
 */
export function ruleLabel(rule: { rule: string; policyId?: string | undefined }): string {
  const parts = rule.rule.split('.');
  const name = parts.at(-1) ?? rule.rule;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().replace(/\bkya\b/g, 'KYA');
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  const scope = parts.length > 1 ? SCOPES[parts[0]!] : undefined;
  if (scope) return `${scope} · ${label}`;
  return rule.policyId ? `Policy · ${label}` : label;
}

const SCOPES: Record<string, string> = { agent: 'Agent rules', kyaTierCap: 'KYA cap', intent: 'Payment' };
