/**
 * Contract of the assistant widget and its endpoint, POST /functions/v1/ai-assistant (spec
 * sections 2, 3, 4, 7 and 8). The widget sends the whole conversation each time; the server
 * answers with server-sent events whose `data:` lines are `chat.completion.chunk` JSON,
 * ending with `data: [DONE]`.
 */
import { z } from 'zod';
import { ASSISTANT_LIMITS, type AssistantMessage } from './assistant-constants';

export * from './assistant-constants';

export const assistantMessageSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(ASSISTANT_LIMITS.maxMessageLength, `A message may be at most ${ASSISTANT_LIMITS.maxMessageLength} characters`),
}) satisfies z.ZodType<AssistantMessage>;

export const assistantRequestInput = z.strictObject({
  messages: z
    .array(assistantMessageSchema)
    .min(1, 'Send at least one message')
    .max(ASSISTANT_LIMITS.maxMessages, `A conversation may hold at most ${ASSISTANT_LIMITS.maxMessages} messages`)
    .refine((messages) => messages.at(-1)?.role === 'user', 'The last message must be the user’s'),
  currentPage: z.string().max(ASSISTANT_LIMITS.maxPageLength).default('/'),
});

export type AssistantRequest = z.infer<typeof assistantRequestInput>;

/** One event's data of the streamed answer: a piece of the text in `choices[0].delta.content`. */
export const chatCompletionChunkView = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  /** Seconds since the epoch. */
  created: z.int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.int(),
      delta: z.object({ content: z.string() }),
      /** "stop" on the last chunk, which is followed by `data: [DONE]`. */
      finish_reason: z.literal('stop').nullable(),
    }),
  ),
});
export type ChatCompletionChunk = z.input<typeof chatCompletionChunkView>;

/** The events of the answer: chunks, or once text has been sent, the failure (then the connection is cut). */
export const assistantEventView = z.union([chatCompletionChunkView, z.object({ error: z.object({ code: z.string(), message: z.string() }) })]);
