import type { INodeProperties } from 'n8n-workflow';
import { getAllDescription } from './getAll';

export const transactionDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many transactions',
				description:
					'Get the agent’s transactions (payments out and in, funding), newest first, one item each, with their categories and metadata',
			},
		],
		default: 'getAll',
	},
	...getAllDescription,
];
