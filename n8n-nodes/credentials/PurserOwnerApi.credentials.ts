import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * An owner's API key at Purser (`psk_…`, Settings → API keys): what only the owner may do, such as
 * approving payments, suspending agents and registering the Purser Trigger's webhook. It acts
 * for the whole account, so keep it out of workflows that only need to pay: those use the
 * agent's credential (Purser API).
 */
export class PurserOwnerApi implements ICredentialType {
	name = 'purserOwnerApi';

	displayName = 'Purser Owner API';

	icon: Icon = { light: 'file:../icons/purser.svg', dark: 'file:../icons/purser.dark.svg' };

	documentationUrl = 'https://github.com/purser-dev/purser/tree/main/n8n-nodes#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://purser.example.com',
			description: 'The address of your Purser deployment, without a path',
			required: true,
		},
		{
			displayName: 'Owner API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'psk_…',
			description:
				'An owner API key (psk_…) from Settings → API keys in Purser. Purser shows it once, when it is created.',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// GET /webhooks answers 200 only for a live owner API key, and it is what the trigger needs.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}/api/v1',
			url: '/webhooks',
			method: 'GET',
		},
	};
}
