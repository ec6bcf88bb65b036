/**
 * The assistant's constants without zod, so the web widget's first chunk stays small; the
 * request schemas live in assistant.ts, which re-exports all of this.
 */
export const ASSISTANT_PATH = '/functions/v1/ai-assistant';

/**
 * The backend's public anonymous key (spec section 6): it names the web client and is no
 * secret, so it ships in the bundle. Whether the caller is a signed-in owner comes from the
 * session cookie, never from this key.
 */
export const PUBLIC_ANON_KEY = 'purser-public-anon-key-v1';

/** Spec section 3, Chat message: the greeting that opens every conversation. */
export const ASSISTANT_GREETING =
  "Hi! I'm the Purser assistant. I can help you create agent wallets, fund them, and connect them to n8n. " +
  'I can also answer questions about our Responsible AI program, Security Whitepaper, docs, terms or privacy commitments. ' +
  'What would you like to do?';

/** Spec section 8: what the widget shows for any failure of the endpoint. */
export const ASSISTANT_ERROR_MESSAGE = 'Sorry, I encountered an error. Please try again.';

/** Limits of one request: past them the endpoint answers 400 or 413 and calls no model. */
export const ASSISTANT_LIMITS = {
  maxMessages: 40,
  maxMessageLength: 4_000,
  maxPageLength: 300,
} as const;

/** Spec section 3, Chat message. */
export interface AssistantMessage {
  role: 'user' | 'assistant';
  content: string;
}
