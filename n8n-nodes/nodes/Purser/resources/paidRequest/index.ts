import type { INodeProperties } from 'n8n-workflow';
import { fetchDescription } from './fetch';

export const paidRequestDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['paidRequest'] } },
		options: [
			{
				name: 'Fetch',
				value: 'fetch',
				action: 'Fetch a URL and pay for it with x402',
				description:
					'Call a URL; when it answers HTTP 402 Payment Required, pay its price up to Max Price from the agent wallet and call it again (x402)',
			},
		],
		default: 'fetch',
	},
	...fetchDescription,
];
