/**
 * Purser's messages name the agent API's fields and endpoints (`max_amount`,
 * `GET /payment/{intent_id}`, the `Idempotency-Key` header), which a person in n8n never sees:
 * the node shows Max Price, Payment → Get and Options → Idempotency Key. The API keeps its own
 * words for its own clients; the node rewrites them here, in one place, before n8n shows them.
 */

/** The API's names, as they appear inside a message, and the node's for the same thing. */
const API_NAMES: Array<[RegExp, string]> = [
	[/\bGET \/payment\/\{intent_?id\}/gi, 'Payment → Get'],
	[/\bGET \/budget\/\{session_?id\}/gi, 'Budget → Get'],
	[/\bsession_id\b/g, 'Budget (Session ID)'],
	[/\bpayment sessions\b/g, 'budgets'],
	[/\bPayment session\b/g, 'Budget'],
	[/\bpayment session\b/g, 'budget'],
	[/\bmax_amount (\d+(?:\.\d+)?)/g, 'Max Price ($1)'],
	[/\bmax_amount\b/g, 'Max Price'],
	[/\bto_address\b/g, 'To Address'],
	[/\bIdempotency-Key\b/g, 'Idempotency Key'],
	[/\bidempotency_key\b/g, 'Idempotency Key'],
	[/\brepeat this call\b/gi, 'run this node again'],
];

/** A validation message starts with the field it is about: the API's name, then the node's. */
const FIELD_NAMES: Record<string, string> = {
	amount: 'Amount',
	body: 'Body',
	category: 'Category',
	currency: 'Currency',
	description: 'Description',
	'header values': 'Header values',
	headers: 'Headers',
	metadata: 'Metadata',
	method: 'Method',
	note: 'Note',
	rail: 'Rail',
	reason: 'Reason',
	url: 'URL',
};

/** A message of Purser's in the node's words. */
export function inNodeTerms(message: string): string {
	let worded = message;
	for (const [apiName, nodeName] of API_NAMES) worded = worded.replace(apiName, nodeName);
	const leading = /^([a-z]+(?: values)?) must\b/.exec(worded)?.[1];
	if (leading && FIELD_NAMES[leading]) worded = `${FIELD_NAMES[leading]}${worded.slice(leading.length)}`;
	return worded;
}
