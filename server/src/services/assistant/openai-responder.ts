/**
 * The assistant with a model provider: any OpenAI-compatible chat completions API, streamed
 * through the official openai SDK. The system prompt grounds the model in the documentation
 * passages retrieved for the question (with their links) and in the page the reader is on.
 * A signed-in owner's model gets the tools of assistant-actions.ts: listing runs at once and
 * its result goes back to the model; creating or funding ends the turn with the server's own
 * proposal, which acts only after the owner confirms it.
 */
import type OpenAI from 'openai';
import type { ChatCompletionFunctionTool, ChatCompletionMessageFunctionToolCall, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AssistantMessage } from '@purser/core';
import { listAgentsForModel, OWNER_TOOLS, proposeAction, type ActionDeps } from './assistant-actions';
import { withoutTokens } from './confirmation-token';
import type { DocPassage, DocsIndex } from './docs-index';

/** Model calls in one answer: list_agents may be asked a few times before the model answers. */
const MAX_MODEL_CALLS = 4;
const PASSAGES_IN_PROMPT = 5;
const PASSAGE_CHARS = 1_200;

/**
 * The provider failed or broke off (an error status, a refused connection, a stream cut
 * short). Not thrown for an abort: the caller's signal says why it aborted.
 */
export class ProviderFailure extends Error {
  override name = 'ProviderFailure';
}

export interface ProviderAnswer {
  client: OpenAI;
  model: string;
  index: DocsIndex;
  messages: readonly AssistantMessage[];
  currentPage: string;
  /** The signed-in owner; undefined for a visitor, whose model gets no tools. */
  ownerId?: string;
  deps: ActionDeps;
  signal: AbortSignal;
  write(text: string): Promise<void>;
}

export async function answerWithProvider(answer: ProviderAnswer): Promise<void> {
  const { client, model, ownerId, signal } = answer;
  const history: ChatCompletionMessageParam[] = [
    { role: 'system', content: systemPrompt(answer) },
    // Confirmation codes are withheld: only the server writes them, under its own proposals.
    ...answer.messages.map((message) => ({ role: message.role, content: withoutTokens(message.content) })),
  ];
  let wrote = false;
  const write = async (text: string) => {
    wrote = true;
    await answer.write(text);
  };

  for (let call = 1; call <= MAX_MODEL_CALLS; call++) {
    // The last call gets no tools, so the model has to answer with what it has.
    const tools = ownerId !== undefined && call < MAX_MODEL_CALLS ? OWNER_TOOLS : undefined;
    let reply: { content: string; toolCalls: ChatCompletionMessageFunctionToolCall[] };
    try {
      reply = await streamOnce(client, { model, messages: history, tools }, signal, write);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ProviderFailure(`The model provider failed: ${(error as Error).message}`, { cause: error });
    }
    const toolCalls = reply.toolCalls;
    if (ownerId === undefined || toolCalls.length === 0) break;

    history.push({ role: 'assistant', content: reply.content === '' ? null : reply.content, tool_calls: toolCalls });
    for (const toolCall of toolCalls) {
      const name = toolCall.function.name;
      if (name === 'create_agent' || name === 'fund_agent') {
        const proposal = await proposeAction(answer.deps, ownerId, name, toolCall.function.arguments);
        if (proposal.ok) {
          await write(`${wrote ? '\n\n' : ''}${proposal.text}`);
          return;
        }
        history.push(toolResult(toolCall.id, { error: proposal.problem }));
      } else if (name === 'list_agents') {
        history.push(toolResult(toolCall.id, await listAgentsForModel(answer.deps, ownerId)));
      } else {
        history.push(toolResult(toolCall.id, { error: `There is no tool named ${name}` }));
      }
    }
  }
  if (!wrote) await write('I have no answer to that. Please rephrase your question, or browse the [docs](/docs).');
}

/**
 * One streamed completion: its text goes out as it comes, its tool calls are put together from
 * their pieces. Read chunk by chunk rather than through the SDK's stricter stream helper, so
 * OpenAI-compatible servers that leave out details (the first chunk's role) work too.
 */
async function streamOnce(
  client: OpenAI,
  request: { model: string; messages: ChatCompletionMessageParam[]; tools?: ChatCompletionFunctionTool[] },
  signal: AbortSignal,
  write: (text: string) => Promise<void>,
): Promise<{ content: string; toolCalls: ChatCompletionMessageFunctionToolCall[] }> {
  const stream = await client.chat.completions.create(
    { model: request.model, messages: request.messages, stream: true, ...(request.tools ? { tools: request.tools } : {}) },
    { signal },
  );
  let content = '';
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) {
      content += delta.content;
      await write(delta.content);
    }
    for (const piece of delta?.tool_calls ?? []) {
      const call = calls.get(piece.index) ?? { id: '', name: '', arguments: '' };
      if (piece.id) call.id = piece.id;
      // The name comes whole in the call's first piece; the arguments come in pieces.
      if (piece.function?.name && call.name === '') call.name = piece.function.name;
      if (piece.function?.arguments) call.arguments += piece.function.arguments;
      calls.set(piece.index, call);
    }
  }
  // The SDK ends the iteration quietly when the signal aborts; an abort is no answer.
  signal.throwIfAborted();
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]): ChatCompletionMessageFunctionToolCall => ({
      id: call.id || `call_${index}`,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  return { content, toolCalls };
}

function toolResult(toolCallId: string, result: unknown): ChatCompletionMessageParam {
  return { role: 'tool', tool_call_id: toolCallId, content: JSON.stringify(result) };
}

/** The passages for the question (with the one before it, for follow-ups) and for the page. */
export function passagesFor(index: DocsIndex, messages: readonly AssistantMessage[], currentPage: string): DocPassage[] {
  const questions = messages.filter((message) => message.role === 'user').slice(-2);
  const found = index.search(questions.map((message) => message.content).join('\n'), { limit: PASSAGES_IN_PROMPT }).map((result) => result.passage);
  const path = currentPage.split(/[?#]/)[0] ?? '';
  const onPage = index.passages.find((passage) => passage.link === path);
  return onPage && !found.includes(onPage) ? [onPage, ...found] : found;
}

export function systemPrompt(answer: Pick<ProviderAnswer, 'index' | 'messages' | 'currentPage' | 'ownerId'>): string {
  const passages = passagesFor(answer.index, answer.messages, answer.currentPage);
  const page = answer.currentPage.replace(/[\r\n"]+/g, ' ').trim() || '/';
  const reader =
    answer.ownerId !== undefined
      ? [
          'The reader is a signed-in owner. With your tools you can list their agents and prepare creating an agent or funding one from their wallet.',
          'Creating and funding only prepare a proposal: the server shows it to the owner and acts only when they reply yes. Never say such an action is done, and do not ask for confirmation yourself.',
          'Amounts are dollars of USDC (the default) or USDT. Find agent ids with list_agents; never guess one.',
        ].join(' ')
      : 'The reader is not signed in, so you cannot see or change any account. To create or fund agents they sign in at [/auth](/auth) and use the [dashboard](/dashboard).';
  return [
    'You are the Purser assistant on the website of Purser, a payment and identity layer for AI agents.',
    'You help people create agent wallets, fund them and connect them to n8n, and answer questions about the Responsible AI program, the Security Whitepaper, the docs, the terms and the privacy commitments.',
    '',
    'Rules:',
    '- Answer from the documentation passages below. When they do not cover the question, say so and point to [the docs](/docs). Never invent features, endpoints, prices or links.',
    '- Cite the passages you use with their markdown links, exactly as given.',
    '- Be brief: a few sentences or a short list, in markdown.',
    '- Never ask for or repeat passwords, API keys or private keys.',
    '',
    reader,
    '',
    `The reader is on the page "${page}".`,
    '',
    'Documentation passages:',
    ...passages.map((passage, index) => `[${index + 1}] ${passage.title} (${passage.source}): ${passage.link}\n${clip(passage.paragraphs.join('\n'), PASSAGE_CHARS)}`),
  ].join('\n');
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
