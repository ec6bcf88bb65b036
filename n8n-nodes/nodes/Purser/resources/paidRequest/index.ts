import type { INodeProperties } from 'n8n-workflow';
import { fetchDescription } from './fetch';
import { getPriceDescription } from './getPrice';

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
				action: 'Fetch a URL and pay its price from the agent wallet',
				description:
					'Call a URL; when it answers HTTP 402 Payment Required, pay its price up to Max Price from the agent wallet in the protocol the seller speaks (x402 or MPP, the Machine Payments Protocol) and call it again. The output names it in payment.protocol. Files such as images and PDFs come back as binary data.',
			},
			{
				name: 'Get Price',
				value: 'getPrice',
				action: 'Get the x402 price of a URL without paying',
				description:
					'Call a URL without paying and read what it asks for: whether it needs payment (HTTP 402), its price in dollars and the payments it accepts. Pays nothing.',
			},
		],
		default: 'fetch',
	},
	...fetchDescription,
	...getPriceDescription,
];
