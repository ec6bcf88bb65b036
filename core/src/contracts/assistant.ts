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
