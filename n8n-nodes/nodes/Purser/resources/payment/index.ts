import type { INodeProperties } from 'n8n-workflow';
import { createDescription } from './create';
import { decideDescription } from './decide';
import { getDescription } from './get';
import { getPendingDescription } from './getPending';

export const paymentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payment'] } },
		options: [
			{
				name: 'Approve',
				value: 'approve',
				action: 'Approve a payment waiting for the owner',
				description:
					'As the owner: approve a payment whose status is pending_approval; it then settles. Needs the Purser Owner API credential.',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Pay an address from the agent wallet within its spending rules',
				description:
					'Pay an address from the agent wallet, within the agent’s spending rules and the owner’s policies. Answers status settled, or pending_approval when the owner must approve first; repeating it with the same idempotency key never pays twice.',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get the status of a payment',
				description:
					'Read where one of the agent’s payments stands (e.g. pending_approval, settled, rejected) by its intent ID or idempotency key. Pays nothing.',
			},
			{
				name: 'Get Many Pending',
				value: 'getPending',
				action: 'Get payments waiting for approval',
				description:
					'As the owner: list the payments that wait for the owner’s approval, newest first. Needs the Purser Owner API credential.',
			},
			{
				name: 'Reject',
				value: 'reject',
				action: 'Reject a payment waiting for the owner',
				description:
					'As the owner: reject a payment whose status is pending_approval; no money moves. Needs the Purser Owner API credential.',
			},
		],
		default: 'create',
	},
	...createDescription,
	...getDescription,
	...decideDescription,
	...getPendingDescription,
];
