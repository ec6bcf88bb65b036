/**
 * One answer of the assistant, written piece by piece through `write`. First the reply to a
 * pending proposal (the previous assistant message ends with a confirmation token): an
 * explicit yes carries the action out, anything else cancels it. Then the question itself,
 * answered by the model provider when one is configured, else from the documentation.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { AssistantRequest } from '@purser/core';
import type { AuthenticatedOwner } from '../auth/authenticate-owner';
import { executeAction, type ActionDeps } from './assistant-actions';
import { checkConfirmationToken, tokenInMessage, type TokenCheck } from './confirmation-token';
import { loadDocsIndex } from './docs-index';
import { answerFromDocs } from './offline-responder';
import { answerWithProvider } from './openai-responder';

export interface AssistantTurn {
  deps: ActionDeps;
  /** With a provider configured; undefined answers offline. */
  provider?: { client: OpenAI; model: string };
  request: AssistantRequest;
  owner: AuthenticatedOwner | null;
  signal: AbortSignal;
  write(text: string): Promise<void>;
}

/** An explicit yes, and nothing else of substance. */
const YES = /^(?:yes|y|confirm|confirmed|go ahead|do it)(?:[\s,]+please)?[\s.!]*$/i;
const NO = /^(?:no|n|cancel|stop|don['’]?t|do not)(?:[\s,]+thanks?)?[\s.!]*$/i;

export const CANCELLED = 'I did not carry out the proposed action; nothing was changed.';

const REFUSED: Record<Exclude<TokenCheck, { ok: true }>['reason'], string> = {
  invalid: 'That confirmation code is not valid, so nothing was done. Ask again and I will prepare a new proposal.',
  expired: 'That proposal has expired, so nothing was done. Ask again and I will prepare a new one.',
  other_owner: 'That proposal was made for another account, so nothing was done.',
};

export async function answerAssistant(turn: AssistantTurn): Promise<void> {
  const { messages, currentPage } = turn.request;
  const question = messages.at(-1)?.content ?? '';
  const previous = messages.at(-2);
  const token = previous?.role === 'assistant' ? tokenInMessage(previous.content) : undefined;

  if (token !== undefined) {
    if (YES.test(question.trim())) {
      await turn.write(await confirm(turn, token));
      return;
    }
    if (NO.test(question.trim())) {
      await turn.write(CANCELLED);
      return;
    }
    // Something else: the proposal lapses, and the new message is answered as a question.
    await turn.write(`${CANCELLED}\n\n`);
  }

  const index = await loadDocsIndex();
  if (turn.provider) {
    await answerWithProvider({
      ...turn.provider,
      index,
      messages,
      currentPage,
      ownerId: turn.owner?.userId,
      deps: turn.deps,
      signal: turn.signal,
      write: turn.write,
    });
    return;
  }
  // Line by line, so the widget shows the answer growing as it would from a model.
  for (const line of answerFromDocs(index, question).split(/(?<=\n)/)) {
    turn.signal.throwIfAborted();
    await turn.write(line);
    await nextTurn();
  }
}

async function confirm(turn: AssistantTurn, token: string): Promise<string> {
  if (!turn.owner) return 'Please sign in to confirm this action. Nothing was done.';
  const check = await checkConfirmationToken(turn.deps.masterKey, token, turn.owner.userId);
  if (!check.ok) {
    turn.deps.logger.warn({ ownerId: turn.owner.userId, reason: check.reason }, 'assistant confirmation refused');
    return REFUSED[check.reason];
  }
  const answer = await executeAction(turn.deps, check.action);
  turn.deps.logger.info({ ownerId: turn.owner.userId, action: check.action.action }, 'assistant action confirmed');
  return answer;
}
