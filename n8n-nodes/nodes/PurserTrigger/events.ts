import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The events an endpoint can subscribe to at Purser (core's WEBHOOK_SUBSCRIBABLE_EVENTS; a unit
 * test keeps this list equal to it). The four payment events carry the payment intent in
 * `data.intent`, budget.threshold the alert in `data.alert`.
 */
export const PURSER_EVENTS: INodePropertyOptions[] = [
	{
		name: 'Budget Threshold',
		value: 'budget.threshold',
		description: 'An agent reached 80% or 100% of its daily limit or of a policy’s monthly budget',
	},
	{
		name: 'Intent Approved',
		value: 'intent.approved',
		description: 'A payment passed the policy checks or was approved by the owner, and goes ahead',
	},
	{
		name: 'Intent Created',
		value: 'intent.created',
		description: 'A payment was asked for by an agent or the owner',
	},
	{
		name: 'Policy Violation',
		value: 'policy.violation',
		description: 'A spending rule or policy refused a payment; nothing moved',
	},
	{
		name: 'Settlement Completed',
		value: 'settlement.completed',
		description: 'A payment settled: the money moved',
	},
];
