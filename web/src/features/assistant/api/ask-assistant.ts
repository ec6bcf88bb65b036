// The assistant call (spec section 7): the conversation goes to the same-origin endpoint with
// the public anonymous key, and the reply streams back as server-sent events.
import { ASSISTANT_PATH, PUBLIC_ANON_KEY, type AssistantMessage } from '@purser/core';
import { AssistantStreamError, readAssistantStream } from './assistant-stream';

export interface AskAssistantInput {
  /** The whole conversation sent with this question, ending with the user's new message. */
  messages: AssistantMessage[];
  /** The path of the page the user is on, so answers can refer to it. */
  currentPage: string;
  /** Called with the reply so far each time it grows. */
  onText: (reply: string) => void;
}

/** Resolves with the whole reply; rejects on any failure (status, missing body, network, cut stream). */
export async function askAssistant({ messages, currentPage, onText }: AskAssistantInput): Promise<string> {
  const response = await fetch(ASSISTANT_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${PUBLIC_ANON_KEY}` },
    body: JSON.stringify({ messages, currentPage }),
  });
  if (!response.ok) throw new AssistantStreamError(`The assistant answered with status ${response.status}`);
  if (!response.body) throw new AssistantStreamError('The assistant answered without a body');
  return readAssistantStream(response.body, onText);
}
