import type { INodeProperties } from 'n8n-workflow';
import { getDescription } from './get';
import { suspendDescription } from './suspend';

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
			{
				name: 'Resume',
				value: 'resume',
				action: 'Resume a suspended agent',
				description:
					'As the owner: reactivate a suspended agent so that its calls work again. Needs the Purser Owner API credential.',
			},
			{
				name: 'Suspend',
				value: 'suspend',
				action: 'Suspend an agent',
				description:
					'As the owner: suspend an agent at once; its calls and payments are refused until it is resumed. Needs the Purser Owner API credential.',
			},
		],
		default: 'get',
	},
	...getDescription,
	...suspendDescription,
];
