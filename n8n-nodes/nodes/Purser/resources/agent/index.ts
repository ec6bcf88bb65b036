import type { INodeProperties } from 'n8n-workflow';
import { getDescription } from './get';

export const agentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agent'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get the agent identity and spending rules',
				description:
					'Get the agent’s DID, verifiable credential, wallet addresses, spending rules, what is left of its daily limit, and its x402 capabilities',
			},
		],
		default: 'get',
	},
	...getDescription,
];
