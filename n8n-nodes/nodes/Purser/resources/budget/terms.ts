/**
 * What the budget operations share: the terms of a budget (total, cap per payment, expiry,
 * scope) as fields and as the bodies the two APIs take, the session ID field, and `message`
 * for the agent's budgets in the node's words. The agent API speaks snake_case
 * (`per_payment_max`, `expires_at`), the owner API camelCase (`perPaymentMaxUsd`, `expiresAt`).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The protocols and rails a budget's scope may name (core's PAYMENT_PROTOCOLS and RAIL_NAMES; a unit test keeps them equal). */
export const BUDGET_PROTOCOLS = [
	{ name: 'MPP', value: 'mpp' },
	{ name: 'X402', value: 'x402' },
];
export const BUDGET_RAILS = [
	{ name: 'Bank (Sandbox)', value: 'bank' },
	{ name: 'Card (Sandbox)', value: 'card' },
	{ name: 'Ledger', value: 'ledger' },
	{ name: 'Solana (Sandbox)', value: 'solana' },
	{ name: 'X402 on Base', value: 'x402-base' },
];

export type Show = { resource: string[]; operation: string[] };

/** Session ID, for the operations on one budget. */
export function sessionIdField(show: Show, description: string): INodeProperties {
	return {
		displayName: 'Session ID',
		name: 'sessionId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '={{ $json.session_id }}',
		description,
		displayOptions: { show },
	};
}

/** The session ID parameter, trimmed; empty stops the item before Purser is called. */
export function sessionIdOf(this: IExecuteFunctions, itemIndex: number): string {
	const sessionId = String(this.getNodeParameter('sessionId', itemIndex) ?? '').trim();
	if (!sessionId) throw new NodeOperationError(this.getNode(), 'Session ID is empty', { itemIndex });
	return sessionId;
}

/** Total (USD) and Expires At, required to request or open a budget. */
export function termsFields(show: Show, who: 'agent' | 'owner'): INodeProperties[] {
	return [
		{
			displayName: 'Total (USD)',
			name: 'total',
			type: 'number',
			typeOptions: { minValue: 0.000001, numberPrecision: 6 },
			default: 0,
			required: true,
			description:
				who === 'agent'
					? 'How many dollars the task needs in all, with at most 6 decimals; the owner may grant less'
					: 'How many dollars the agent may pay in all against this budget, with at most 6 decimals',
			displayOptions: { show },
		},
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'dateTime',
			default: '',
			required: true,
			placeholder: '={{ $now.plus({ days: 1 }).toISO() }}',
			description:
				'When the budget ends: in the future, at most 30 days away. A date without a time zone is in the workflow’s time zone.',
			displayOptions: { show },
		},
	];
}

/** Per-Payment Max and the scope, under Options of Request and Open. */
export const scopeOptions: INodeProperties[] = [
	{
		displayName: 'Categories',
		name: 'categories',
		type: 'string',
		default: '',
		placeholder: 'data, compute',
		description: 'Only payments of these categories, separated by commas (up to 20, each up to 64 characters)',
	},
	{
		displayName: 'Per-Payment Max (USD)',
		name: 'perPaymentMax',
		type: 'number',
		typeOptions: { minValue: 0.000001, numberPrecision: 6 },
		default: 1,
		description: 'The most one payment may take from the budget, in dollars; at most the total',
	},
	{
		displayName: 'Protocols',
		name: 'protocols',
		type: 'multiOptions',
		options: BUDGET_PROTOCOLS,
		default: [],
		description: 'Only paid requests in these protocols',
	},
	{
		displayName: 'Rails',
		name: 'rails',
		type: 'multiOptions',
		options: BUDGET_RAILS,
		default: [],
		description: 'Only payments on these rails',
	},
	{
		displayName: 'Sellers',
		name: 'sellers',
		type: 'string',
		default: '',
		placeholder: 'api.example.com, 0x000000000000000000000000000000000000dEaD',
		description: 'Only these sellers, separated by commas: host names or pay-to addresses (0x and 40 hex digits), up to 20',
	},
];

export interface ScopeOptions {
	categories?: string;
	perPaymentMax?: number;
	protocols?: string[];
	rails?: string[];
	sellers?: string;
}

/** A comma-separated list as an array, blanks dropped. */
function listOf(value: string | undefined): string[] {
	return (value ?? '')
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** The scope Purser takes: only the lists that name something, so an empty one does not narrow it. */
export function scopeOf(options: ScopeOptions): IDataObject | undefined {
	const scope: IDataObject = {};
	const sellers = listOf(options.sellers);
	const categories = listOf(options.categories);
	if (sellers.length > 0) scope.sellers = sellers;
	if (categories.length > 0) scope.categories = categories;
	if (options.protocols?.length) scope.protocols = options.protocols;
	if (options.rails?.length) scope.rails = options.rails;
	return Object.keys(scope).length > 0 ? scope : undefined;
}

const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** The offset of `timeZone` from UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
			.formatToParts(new Date(instant))
			.map((part) => [part.type, part.value]),
	);
	const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
	return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * An expiry as Purser takes it: ISO 8601 with a time zone. n8n's date picker gives a local time
 * without one, which is read in the workflow's time zone; an expression may give an ISO text, a
 * Date or a Luxon DateTime (`$now.plus({ days: 1 })`).
 */
export function expiryOf(this: IExecuteFunctions, value: unknown, field: string, itemIndex: number): string {
	let text: string;
	if (value instanceof Date) text = value.toISOString();
	else if (typeof value === 'object' && value !== null && typeof (value as { toISO?: unknown }).toISO === 'function') {
		text = String((value as { toISO: () => string }).toISO());
	} else text = String(value ?? '').trim();
	if (!text) throw new NodeOperationError(this.getNode(), `${field} is empty`, { itemIndex });
	const zoned = HAS_ZONE.test(text);
	const parsed = Date.parse(zoned ? text : `${text}Z`);
	if (Number.isNaN(parsed)) {
		throw new NodeOperationError(this.getNode(), `${field} must be a date and time, e.g. 2026-12-31T18:00:00Z`, { itemIndex });
	}
	if (zoned) return new Date(parsed).toISOString();
	// `parsed` is the local time read as UTC. Around a change of offset the first guess can be an
	// hour off; the offset at the guess settles it.
	const timeZone = this.getTimezone();
	const guess = parsed - zoneOffsetMs(parsed, timeZone);
	return new Date(parsed - zoneOffsetMs(guess, timeZone)).toISOString();
}

/**
 * What the agent should do next with one of its budgets, naming the node's operations and
 * fields where Purser's `message` names the agent API's endpoints and MCP tools.
 */
export function budgetMessage(budget: IDataObject): string | undefined {
	const id = String(budget.session_id ?? '');
	switch (budget.status) {
		case 'requested':
			return `Waiting for the owner to grant or reject it. Budget → Get shows where it stands; once its status is open, put ${id} into Budget (Session ID) under Options of Payment → Create.`;
		case 'open':
			return `Open: put ${id} into Budget (Session ID) under Options of Payment → Create; each payment counts against the ${String(budget.remaining_exact)} USDC left until ${String(budget.expires_at)}.`;
		case 'rejected':
			return 'The owner rejected this request (see decision_note). Payments cannot name it; request a new budget only with a new reason.';
		case 'closed':
			return `Closed (${String(budget.closed_reason ?? 'ended')}): payments can no longer name it. Request a new budget if the task needs more.`;
		default:
			return undefined;
	}
}

/** An agent's budget as Purser answered it, with `message` in the node's words. */
export function withBudgetMessage(budget: IDataObject): IDataObject {
	const message = budgetMessage(budget);
	return message === undefined ? budget : { ...budget, message };
}
