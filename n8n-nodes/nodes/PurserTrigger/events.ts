import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The events an endpoint can subscribe to at Purser (core's WEBHOOK_SUBSCRIBABLE_EVENTS; a unit
 * test keeps this list equal to it). The four payment events carry the payment intent in
 * `data.intent`, budget.threshold the alert in `data.alert`, connection.created and
 * connection.revoked the OAuth connection of an MCP host in `data.connection`, and
 * budget.requested, budget.granted, budget.rejected and budget.closed the payment session in
 * `data.session`.
 */
export const PURSER_EVENTS: INodePropertyOptions[] = [
	{
		name: 'Budget Closed',
		value: 'budget.closed',
		description: 'The owner ended a budget (payment session) or a waiting budget request',
	},
	{
		name: 'Budget Granted',
		value: 'budget.granted',
		description: 'A budget (payment session) opened: the owner granted an agent’s request or opened one',
	},
	{
		name: 'Budget Rejected',
		value: 'budget.rejected',
		description: 'The owner rejected an agent’s budget request, with a note',
	},
	{
		name: 'Budget Requested',
		value: 'budget.requested',
		description: 'An agent asked its owner for a budget for one task; it waits for a decision',
	},
	{
		name: 'Budget Threshold',
		value: 'budget.threshold',
		description: 'An agent reached 80% or 100% of its daily limit or of a policy’s monthly budget',
	},
	{
		name: 'Connection Created',
		value: 'connection.created',
		description: 'The owner connected an MCP host or other OAuth client to an agent',
	},
	{
		name: 'Connection Revoked',
		value: 'connection.revoked',
		description: 'An OAuth connection of an agent ended: revoked by the owner or the client, or its tokens were replayed',
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
