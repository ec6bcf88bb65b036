/**
 * A chat model with a script instead of weights, for running n8n's AI Agent offline: an HTTP
 * server on 127.0.0.1 that speaks OpenAI's Chat Completions API (what n8n's OpenAI Chat Model
 * node calls at its credential's Base URL) and answers each request with the script's next
 * move, a tool call or a final text. It records every request, so a test sees the tools (names,
 * descriptions, parameters) the agent offered the model and the tool results it sent back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: { properties?: Record<string, unknown> } } }>;
  stream?: boolean;
}

/** The model's move: call a tool (by its position in `tools`) with arguments, or answer. */
export type ScriptedMove = { callTool: number; arguments: Record<string, unknown> } | { answer: string };

export interface ScriptedModel {
  /** The credential's Base URL. */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

function completion(request: ChatRequest, move: ScriptedMove, turn: number) {
  const message =
    'answer' in move
      ? { role: 'assistant', content: move.answer }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: request.tools![move.callTool]!.function.name, arguments: JSON.stringify(move.arguments) } }],
        };
  return {
    id: `chatcmpl-${turn}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: 'answer' in move ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** `script(request, turn)` gives the move for the turn-th request (from 0). */
export async function startScriptedModel(script: (request: ChatRequest, turn: number) => ScriptedMove): Promise<ScriptedModel> {
  const requests: ChatRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      if (incoming.method !== 'POST' || !incoming.url?.endsWith('/chat/completions')) {
        outgoing.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no ${incoming.method} ${incoming.url} here` } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      requests.push(request);
      const turn = requests.length - 1;
      const body = completion(request, script(request, turn), turn);
      if (!request.stream) {
        outgoing.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        return;
      }
      // The same answer as one streamed chunk and the end of the stream.
      const [choice] = body.choices;
      const chunk = {
        ...body,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { ...choice!.message, tool_calls: (choice!.message.tool_calls ?? []).map((call, index) => ({ index, ...call })) }, finish_reason: choice!.finish_reason }],
      };
      outgoing.writeHead(200, { 'content-type': 'text/event-stream' });
      outgoing.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
