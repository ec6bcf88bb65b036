/**
 * The assistant endpoint as the widget calls it (spec section 7): the public anonymous key as
 * bearer, the session cookie when signed in, and a reader of the streamed body that follows
 * the spec's client: `data: ` lines carry JSON whose choices[0].delta.content is appended,
 * blank lines and `:` lines are ignored, `[DONE]` ends the stream, unparsable lines are skipped.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ASSISTANT_PATH, PUBLIC_ANON_KEY, type AssistantMessage } from '@purser/core';

export interface ReadStream {
  /** The reply as the widget shows it. */
  text: string;
  /** Every `data:` payload, in order ([DONE] included). */
  events: string[];
  /** The deltas that carried text, in order. */
  deltas: string[];
  /** True when [DONE] came, and came last. */
  done: boolean;
  /** `data: {"error": ...}` events. */
  errors: Array<{ code: string; message: string }>;
}

export function readEventStream(body: string): ReadStream {
  const result: ReadStream = { text: '', events: [], deltas: [], done: false, errors: [] };
  for (const line of body.split('\n')) {
    if (line === '' || line.startsWith(':') || !line.startsWith('data: ')) continue;
    const data = line.slice('data: '.length);
    result.events.push(data);
    if (data === '[DONE]') {
      result.done = true;
      continue;
    }
    result.done = false;
    try {
      const json = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }>; error?: { code: string; message: string } };
      if (json.error) result.errors.push(json.error);
      const content = json.choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content !== '') {
        result.deltas.push(content);
        result.text += content;
      }
    } catch {
      // Unparsable lines are skipped, as the spec's client does.
    }
  }
  return result;
}

export interface AskOptions {
  currentPage?: string;
  /** The access token, sent as the session cookie the web app carries. */
  sessionToken?: string;
  authorization?: string | null;
  remoteAddress?: string;
}

export function askAssistant(app: FastifyInstance, messages: AssistantMessage[] | unknown, options: AskOptions = {}): Promise<LightMyRequestResponse> {
  const authorization = options.authorization === undefined ? `Bearer ${PUBLIC_ANON_KEY}` : options.authorization;
  return app.inject({
    method: 'POST',
    url: ASSISTANT_PATH,
    // The widget runs on the product's pages: its browser names their origin (test-app.ts's public URL).
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000', ...(authorization === null ? {} : { authorization }) },
    cookies: options.sessionToken ? { purser_access: options.sessionToken } : {},
    payload: { messages, currentPage: options.currentPage ?? '/' },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** A conversation: the greeting the widget starts with isn't needed by the server. */
export function userSays(content: string, before: AssistantMessage[] = []): AssistantMessage[] {
  return [...before, { role: 'user', content }];
}
