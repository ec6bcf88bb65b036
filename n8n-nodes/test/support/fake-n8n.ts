/**
 * Just enough of n8n's execution context to run the Purser nodes' code in a unit test: node
 * parameters, credentials, an HTTP layer that records each request and answers from a script,
 * binary data, workflow static data and a webhook request. The real n8n runs them in
 * test/*.temporal.test.ts; this one shows what the nodes send and how they read the answers.
 */
import type {
  IBinaryData,
  IDataObject,
  IExecuteFunctions,
  IHookFunctions,
  IHttpRequestOptions,
  INodeExecutionData,
  IWebhookFunctions,
} from 'n8n-workflow';

export interface RecordedRequest {
  method: string;
  url: string;
  credentialType: string;
  qs?: IDataObject;
  body?: IDataObject;
  headers?: IDataObject;
}

export interface ScriptedAnswer {
  statusCode?: number;
  body: unknown;
}

export interface FakeN8nOptions {
  /** Parameters by name (dotted paths for nested ones, e.g. `headers.header`), per item or for all. */
  parameters: IDataObject | ((itemIndex: number) => IDataObject);
  items?: IDataObject[];
  /** Answers to the requests, in order; a function answers by request. */
  answers?: ScriptedAnswer[] | ((request: RecordedRequest) => ScriptedAnswer);
  runIndex?: number;
  executionId?: string;
  staticData?: IDataObject;
  webhookUrl?: string;
  /** Aborted when the execution is cancelled. */
  cancelSignal?: AbortSignal;
  /** The workflow's time zone (Settings → Timezone); UTC unless given. */
  timezone?: string;
  /** The webhook request of IWebhookFunctions. */
  request?: { headers: Record<string, string>; rawBody: Buffer };
}

export const CREDENTIALS: Record<string, IDataObject> = {
  purserApi: { baseUrl: 'https://purser.test/', agentDid: 'did:agnic:00000000-0000-4000-8000-000000000001', apiKey: 'pak_test' },
  purserOwnerApi: { baseUrl: 'https://purser.test', apiKey: 'psk_test' },
};

function valueAt(parameters: IDataObject, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], parameters);
}

export interface FakeN8n {
  context: IExecuteFunctions & IHookFunctions & IWebhookFunctions;
  requests: RecordedRequest[];
  staticData: IDataObject;
  /** What the webhook answered itself (a refusal), when it did. */
  response: { status?: number; body?: unknown };
}

export function fakeN8n(options: FakeN8nOptions): FakeN8n {
  const requests: RecordedRequest[] = [];
  const staticData = options.staticData ?? {};
  const response: FakeN8n['response'] = {};
  const parametersOf = (itemIndex: number) => (typeof options.parameters === 'function' ? options.parameters(itemIndex) : options.parameters);
  const node = { id: 'node-1', name: 'Purser', type: 'n8n-nodes-purser.purser', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

  const httpRequestWithAuthentication = async (credentialType: string, request: IHttpRequestOptions) => {
    const recorded: RecordedRequest = { method: String(request.method ?? 'GET'), url: request.url, credentialType };
    if (request.qs) recorded.qs = request.qs;
    if (request.body) recorded.body = request.body as IDataObject;
    if (request.headers) recorded.headers = request.headers;
    requests.push(recorded);
    const answers = options.answers ?? [];
    const answer = typeof answers === 'function' ? answers(recorded) : answers[requests.length - 1];
    if (!answer) throw new Error(`no scripted answer for request ${requests.length}: ${recorded.method} ${recorded.url}`);
    return { statusCode: answer.statusCode ?? 200, body: answer.body, headers: {} };
  };

  const context = {
    getNodeParameter(name: string, itemIndex: number | unknown, fallback?: unknown) {
      // IHookFunctions and IWebhookFunctions pass (name, fallback).
      const index = typeof itemIndex === 'number' ? itemIndex : 0;
      const value = valueAt(parametersOf(index), name);
      if (value !== undefined) return value;
      const given = typeof itemIndex === 'number' ? fallback : itemIndex;
      if (given !== undefined) return given;
      throw new Error(`parameter ${name} is not set`);
    },
    getInputData: (): INodeExecutionData[] => (options.items ?? [{}]).map((json) => ({ json })),
    getNode: () => node,
    getExecutionId: () => options.executionId ?? 'execution-1',
    getInstanceId: () => 'instance-1',
    getTimezone: () => options.timezone ?? 'UTC',
    getWorkflow: () => ({ id: 'workflow-1', name: 'Test workflow', active: false }),
    getWorkflowDataProxy: () => ({ $thisRunIndex: options.runIndex ?? 0 }),
    getWorkflowStaticData: () => staticData,
    getNodeWebhookUrl: () => options.webhookUrl ?? 'https://n8n.test/webhook/abc/webhook',
    getCredentials: async (type: string) => {
      const credentials = CREDENTIALS[type];
      if (!credentials) throw new Error(`no credentials of type ${type}`);
      return credentials;
    },
    continueOnFail: () => false,
    getExecutionCancelSignal: () => options.cancelSignal,
    getRequestObject: () => ({ headers: options.request?.headers ?? {}, rawBody: options.request?.rawBody }),
    getResponseObject: () => {
      const res = {
        status(code: number) {
          response.status = code;
          return res;
        },
        json(body: unknown) {
          response.body = body;
          return res;
        },
      };
      return res;
    },
    helpers: {
      httpRequestWithAuthentication,
      async prepareBinaryData(data: Buffer, fileName?: string, mimeType?: string): Promise<IBinaryData> {
        return { data: data.toString('base64'), mimeType: mimeType ?? 'application/octet-stream', ...(fileName ? { fileName } : {}), fileSize: String(data.length) };
      },
    },
  };
  return { context: context as unknown as FakeN8n['context'], requests, staticData, response };
}
