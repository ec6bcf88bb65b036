import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { RequestOccurrences } from './idempotency';

/** What one run of the node shares between its items. */
export interface OperationRun {
	/** Tells equal payment requests of this run apart (shared/idempotency.ts). */
	occurrences: RequestOccurrences;
}

/** An output item that carries a file (binary data) beside its JSON. */
export class ItemWithBinary {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

/** One operation of the node for one input item: its output, one item or a list of them. */
export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
	run: OperationRun,
) => Promise<IDataObject | IDataObject[] | ItemWithBinary>;

/** Idempotency Key, shared by the operations that move money. */
export const idempotencyKeyOption = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string' as const,
	default: '',
	description:
		'Purser pays once per key: a repeated key returns the first payment. Leave empty to derive one (see Derive Key From). Set your own, e.g. an order ID, to make a payment unique across executions.',
};

/** How the key is derived when Idempotency Key is empty (shared/idempotency.ts). */
export const keyDerivationOption = {
	displayName: 'Derive Key From',
	name: 'keyDerivation',
	type: 'options' as const,
	options: [
		{
			name: 'Request (Loops Reuse the Payment)',
			value: 'request',
			description:
				'The same request from this node in this execution is one payment: Retry On Fail and a loop back to this node (e.g. waiting for approval) answer the first payment',
		},
		{
			name: 'Run and Item (Every Pass Pays)',
			value: 'runAndItem',
			description:
				'Each run of this node and each item position get a key of their own: every pass through a loop pays again',
		},
	],
	default: 'request',
	description: 'How the idempotency key is derived when Idempotency Key is empty',
};

/** Up to 100 characters, e.g. api, data, compute; the owner sees it and policies can match it. */
export const categoryOption = {
	displayName: 'Category',
	name: 'category',
	type: 'string' as const,
	default: '',
	placeholder: 'data',
	description: 'A category for the owner’s reports and policies, up to 100 characters',
};

export const descriptionOption = {
	displayName: 'Description',
	name: 'description',
	type: 'string' as const,
	default: '',
	description: 'What the payment is for, up to 500 characters; the owner sees it',
};
