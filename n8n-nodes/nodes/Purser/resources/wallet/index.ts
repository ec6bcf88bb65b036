import type { INodeProperties } from 'n8n-workflow';
import { getBalanceDescription } from './getBalance';

export const walletDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['wallet'] } },
		options: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				action: 'Get the agent balance',
				description:
					'Get the agent’s USDC and USDT balances: what it may spend in Purser, and what its address holds on chain',
			},
		],
		default: 'getBalance',
	},
	...getBalanceDescription,
];
