import type { INodeProperties } from 'n8n-workflow';
import { decideDescription } from './decide';
import { getDescription } from './get';
import { getAllDescription } from './getAll';
import { openDescription } from './open';
import { requestDescription } from './request';

/**
 * Budgets (payment sessions): the agent requests one and reads its own; the owner opens,
 * grants, rejects, revokes and reads them. The owner's Get and Get Many have values of their
 * own (getAsOwner, getAllAsOwner), because the operation alone picks the credential.
 */
export const budgetDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['budget'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get one of the agent budgets',
				description:
					'Read one of the agent’s budgets by its session ID: status (requested, open, rejected, closed), total, spent and remaining, the owner’s note, and what to do next. Pays nothing.',
			},
			{
				name: 'Get (Owner)',
				value: 'getAsOwner',
				action: 'Get a budget as the owner',
				description:
					'As the owner: read one budget of any of the owner’s agents, with what it spent and what remains. Needs the Purser Owner API credential.',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many budgets of the agent',
				description: 'Get the agent’s budgets, its latest 50, newest first, one item each, with what each spent and what remains',
			},
			{
				name: 'Get Many (Owner)',
				value: 'getAllAsOwner',
				action: 'Get many budgets as the owner',
				description:
					'As the owner: list the budgets of the owner’s agents, the latest 200, newest first, filtered by agent and status (Requested: what waits for a decision). Needs the Purser Owner API credential.',
			},
			{
				name: 'Grant',
				value: 'grant',
				action: 'Grant a budget request',
				description:
					'As the owner: grant an agent’s budget request, as asked or for a lower total or a sooner expiry, with a note; it opens at once. Needs the Purser Owner API credential.',
			},
			{
				name: 'Open',
				value: 'open',
				action: 'Open a budget for an agent',
				description:
					'As the owner: open a budget for one of the owner’s agents (a total, an expiry, optionally a cap per payment and a scope); the agent’s payments naming it count against it. Needs the Purser Owner API credential.',
			},
			{
				name: 'Reject',
				value: 'rejectRequest',
				action: 'Reject a budget request',
				description:
					'As the owner: reject an agent’s budget request with a note; nothing can be paid against it. Needs the Purser Owner API credential.',
			},
			{
				name: 'Request',
				value: 'request',
				action: 'Ask the owner for a budget for one task',
				description:
					'Ask the agent’s owner for a budget for one task: a total, an expiry, a reason, optionally a cap per payment and a scope. Answers status requested and approval_url, a one-time link for the owner; once the owner grants it, name it in Payment → Create.',
			},
			{
				name: 'Revoke',
				value: 'revoke',
				action: 'Revoke a budget',
				description:
					'As the owner: end a waiting budget request or an open budget at once; payments naming it are refused afterwards. Needs the Purser Owner API credential.',
			},
		],
		default: 'request',
	},
	...requestDescription,
	...openDescription,
	...getDescription,
	...getAllDescription,
	...decideDescription,
];
