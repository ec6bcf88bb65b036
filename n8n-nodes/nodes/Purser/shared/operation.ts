import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** One operation of the node for one input item: its output, one object or a list of them. */
export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<IDataObject | IDataObject[]>;

/** Idempotency Key, shared by the operations that move money. */
export const idempotencyKeyOption = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string' as const,
	default: '',
	description:
		'Purser pays once per key: a repeated key returns the first payment. Leave empty to derive one from this execution, node, run and item, so Retry On Fail never pays twice. Set your own (e.g. an order ID) to make a payment unique across executions.',
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
