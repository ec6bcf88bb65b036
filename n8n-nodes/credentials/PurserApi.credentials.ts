import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * An agent's identity at Purser: the DID says which agent calls, the key proves it. Every
 * request of the Purser node carries both headers; the key never appears in workflow JSON.
 */
export class PurserApi implements ICredentialType {
	name = 'purserApi';

	displayName = 'Purser API';

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
			displayName: 'Agent DID',
			name: 'agentDid',
			type: 'string',
			default: '',
			placeholder: 'did:agnic:0423e163-2809-4879-a27c-66df3ed4aa66',
			description: 'The DID of the agent that pays, shown on the agent’s page',
			required: true,
		},
		{
			displayName: 'Agent API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The agent’s API key. Purser shows it once, when the agent is created or its key is rotated.',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-Agent-DID': '={{$credentials.agentDid}}',
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// GET /info answers 200 only when the DID and the key belong together and the agent is active.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}/functions/v1/mcp-server',
			url: '/info',
			method: 'GET',
		},
	};
}
