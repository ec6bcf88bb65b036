import type { INodeProperties } from 'n8n-workflow';
import { createDescription } from './create';

export const paymentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payment'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Pay from the agent wallet',
				description:
					'Pay an address from the agent wallet, within the agent’s spending rules and the owner’s policies',
			},
		],
		default: 'create',
	},
	...createDescription,
];
