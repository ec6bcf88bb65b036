// Pure steps of a conversation with the assistant (spec section 4, Chat widget), kept apart
// from the store so they can be tested on their own.
import { ASSISTANT_LIMITS, type AssistantMessage } from '@purser/core';

/**
 * The conversation with the reply so far: while a reply streams, the last assistant message
 * is replaced with the accumulated text; if the last message is not the assistant's, the reply
 * starts a new message.
 */
export function withReply(messages: readonly AssistantMessage[], reply: string): AssistantMessage[] {
  const last = messages.at(-1);
  if (last?.role === 'assistant') return [...messages.slice(0, -1), { role: 'assistant', content: reply }];
  return [...messages, { role: 'assistant', content: reply }];
}

/**
 * What one request carries: the most recent messages, each at most as long as the endpoint
 * accepts, so a long conversation (or a long earlier reply) keeps working instead of being
 * refused with 400. The user's own input is capped where it is typed.
 */
export function requestMessages(messages: readonly AssistantMessage[]): AssistantMessage[] {
  return messages
    .slice(-ASSISTANT_LIMITS.maxMessages)
    .map(({ role, content }) => ({ role, content: content.slice(0, ASSISTANT_LIMITS.maxMessageLength) }));
}

/** The current page as the endpoint accepts it. */
export function requestPage(pathname: string): string {
  return pathname.slice(0, ASSISTANT_LIMITS.maxPageLength);
}
