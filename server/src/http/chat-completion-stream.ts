/**
 * A streamed answer in the shape OpenAI-style clients (and the assistant widget, spec section
 * 7) read: server-sent events whose `data:` lines are `chat.completion.chunk` JSON with the
 * text in `choices[0].delta.content`, ending with `data: [DONE]`.
 *
 * Nothing is sent until the first text: a failure before it is still an ordinary JSON error
 * with its status. A failure after it cannot change the status, so it is sent as
 * `data: {"error":{"code","message"}}` and the connection is cut without [DONE] (and without
 * the chunked encoding's last chunk): a reader sees an error event, then a body that fails
 * to finish, never a stream that looks complete.
 */
import type { FastifyReply } from 'fastify';
import type { ChatCompletionChunk } from '@purser/core';

export interface ChatCompletionStream {
  /** True once the status and headers are sent. */
  readonly started: boolean;
  send(content: string): void;
  /** The last chunk (finish_reason "stop"), then [DONE]. */
  finish(): void;
  /** The error event, then the connection is cut. */
  fail(error: { code: string; message: string }): void;
}

export function openChatCompletionStream(reply: FastifyReply, options: { id: string; model: string }): ChatCompletionStream {
  const created = Math.floor(Date.now() / 1000);
  const raw = reply.raw;
  let started = false;

  const start = () => {
    if (started) return;
    started = true;
    // Fastify no longer answers for this response: hooks that buffer or rewrite a body
    // (onSend) never see it. Headers already set on the raw response (security headers,
    // x-request-id) stay.
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // Reverse proxies such as nginx would otherwise hold the events back.
      'x-accel-buffering': 'no',
    });
  };
  const event = (data: string) => {
    if (!raw.destroyed) raw.write(`data: ${data}\n\n`);
  };
  const chunk = (content: string, finishReason: 'stop' | null) =>
    JSON.stringify({
      id: options.id,
      object: 'chat.completion.chunk',
      created,
      model: options.model,
      // Every chunk carries a string, the last one too: a client appending delta.content
      // never appends "undefined".
      choices: [{ index: 0, delta: { content }, finish_reason: finishReason }],
    } satisfies ChatCompletionChunk);

  return {
    get started() {
      return started;
    },
    send(content) {
      if (content === '') return;
      start();
      event(chunk(content, null));
    },
    finish() {
      start();
      event(chunk('', 'stop'));
      event('[DONE]');
      raw.end();
    },
    fail(error) {
      start();
      if (raw.destroyed) return;
      raw.write(`data: ${JSON.stringify({ error })}\n\n`, () => raw.destroy());
    },
  };
}
