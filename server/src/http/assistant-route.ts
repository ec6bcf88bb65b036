/**
 * POST /functions/v1/ai-assistant (spec sections 6 and 7): the assistant widget's endpoint.
 * The caller names itself with the public anonymous key as bearer; whether it is a signed-in
 * owner comes from the session cookie alone. The answer streams as chat.completion.chunk
 * server-sent events (chat-completion-stream.ts).
 *
 * Limits: ASSISTANT_LIMITS on the body (400 VALIDATION_FAILED, nothing sent to a model), a
 * per-address rate limit (429 RATE_LIMITED) and a time limit on the whole answer. A failure
 * before the first text is a JSON error with its status; after it, an error event and a cut
 * connection. Either way the widget shows its error message.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { AppError, assistantEventView, assistantRequestInput, isAppError } from '@purser/core';
import { answerAssistant } from '../services/assistant/answer-assistant';
import { DEFAULT_ASSISTANT_SETTINGS, type AssistantSettings } from '../services/assistant/assistant-settings';
import { OFFLINE_MODEL } from '../services/assistant/offline-responder';
import { ProviderFailure } from '../services/assistant/openai-responder';
import { authenticateOwner } from '../services/auth/authenticate-owner';
import type { AppDeps } from '../deps';
import { defineRoute, type ApiRoute } from './api-v1/define-route';
import { registerRoute } from './api-v1/register-route';
import { rateLimitStoreOptions } from './rate-limit-store';
import { openChatCompletionStream } from './chat-completion-stream';

export interface AssistantRouteOptions {
  deps: AppDeps;
  settings?: Partial<AssistantSettings>;
}

const RATE_WINDOW_MS = 60_000;

/** The assistant's operation. The settings choose the model provider and the limits, never a schema. */
export function assistantApiRoutes(options: Partial<AssistantSettings> = {}): ApiRoute[] {
  const settings: AssistantSettings = {
    provider: options.provider,
    rateLimitPerMinute: options.rateLimitPerMinute ?? DEFAULT_ASSISTANT_SETTINGS.rateLimitPerMinute,
    timeoutMs: options.timeoutMs ?? DEFAULT_ASSISTANT_SETTINGS.timeoutMs,
  };
  const provider = settings.provider
    ? {
        // Retrying would outlast the widget's patience; the owner can ask again.
        client: new OpenAI({ apiKey: settings.provider.apiKey, baseURL: settings.provider.baseUrl, maxRetries: 0, timeout: settings.timeoutMs }),
        model: settings.provider.model,
      }
    : undefined;
  const secrets = settings.provider ? [settings.provider.apiKey] : [];

  return [
    defineRoute({
      method: 'POST',
      path: '/ai-assistant',
      operationId: 'askAssistant',
      summary: "The assistant widget's answer to a conversation, streamed as chat.completion.chunk server-sent events",
      description:
        'Each `data:` line holds a chunk with the text in `choices[0].delta.content`; `data: [DONE]` ends the answer. A failure before the first text is a JSON error; after it, an error event, then the connection is cut. A signed-in owner (session cookie) gets answers about their own account.',
      tag: 'Assistant',
      auth: 'client-key',
      body: assistantRequestInput,
      mediaType: 'text/event-stream',
      response: assistantEventView,
      config: { rateLimit: { max: settings.rateLimitPerMinute } },
      async handler({ deps, body, request, reply }) {
        // The cookie only: the bearer here is the public key, never an owner's token.
        const owner = await authenticateOwner(deps, { cookies: request.cookies });

        const gone = new AbortController();
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) gone.abort();
        });
        const deadline = AbortSignal.timeout(settings.timeoutMs);
        const signal = AbortSignal.any([gone.signal, deadline]);
        const stream = openChatCompletionStream(reply, { id: `chatcmpl-${request.id}`, model: provider?.model ?? OFFLINE_MODEL });

        try {
          await answerAssistant({
            deps,
            provider,
            request: body,
            owner,
            signal,
            write: async (text) => {
              signal.throwIfAborted();
              stream.send(text);
            },
          });
          stream.finish();
        } catch (error) {
          if (gone.signal.aborted) {
            request.log.info('assistant client went away; answer abandoned');
            if (!stream.started) reply.hijack();
            reply.raw.destroy();
            return reply;
          }
          const failure = describeFailure(error, deadline.aborted);
          request.log.error({ failure: failure.code, ...errorFacts(error, secrets) }, 'assistant answer failed');
          if (!stream.started) throw failure;
          stream.fail(failure.toJSON().error);
        }
        return reply;
      },
    }),
  ];
}

export async function assistantRoute(app: FastifyInstance, options: AssistantRouteOptions): Promise<void> {
  // Scoped to this plugin and shared by every server, like the /auth/v1 limits.
  await app.register(fastifyRateLimit, {
    ...rateLimitStoreOptions(options.deps.rateLimitStore, 'assistant'),
    global: false,
    timeWindow: RATE_WINDOW_MS,
    errorResponseBuilder: (_request, context) => new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
    onExceeded: (request) => request.log.warn('assistant rate limit exceeded'),
  });
  for (const route of assistantApiRoutes(options.settings)) registerRoute(app, route, { deps: options.deps });
}

function describeFailure(error: unknown, timedOut: boolean): AppError {
  if (timedOut || error instanceof OpenAI.APIConnectionTimeoutError) {
    return new AppError('UNAVAILABLE', 'The assistant took too long to answer. Please try again.');
  }
  if (error instanceof ProviderFailure) return new AppError('UPSTREAM_ERROR', 'The assistant’s model provider failed. Please try again.');
  if (isAppError(error)) return error;
  return new AppError('INTERNAL', 'Internal server error');
}

/** What the log may hold of a failure: never the provider key, even inside a message. */
function errorFacts(error: unknown, secrets: readonly string[]): Record<string, unknown> {
  const scrub = (text: string) => secrets.reduce((clean, secret) => clean.split(secret).join('[redacted]'), text);
  if (!(error instanceof Error)) return { error: scrub(String(error)) };
  if (error instanceof ProviderFailure) {
    const cause = error.cause;
    return {
      errorName: error.name,
      errorMessage: scrub(error.message),
      causeName: cause instanceof Error ? cause.name : undefined,
      providerStatus: cause instanceof OpenAI.APIError ? cause.status : undefined,
    };
  }
  return { errorName: error.name, errorMessage: scrub(error.message), stack: scrub(error.stack ?? '') };
}
