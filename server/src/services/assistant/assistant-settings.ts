/**
 * How the assistant (POST /functions/v1/ai-assistant) runs: with a model provider or offline
 * from the documentation, and its limits. Built from the environment in runtime.ts.
 */

export interface AssistantProvider {
  /** OPENAI_API_KEY. Never logged, never sent anywhere but the provider. */
  apiKey: string;
  /** OPENAI_BASE_URL; undefined: OpenAI's own API. */
  baseUrl?: string;
  model: string;
}

export interface AssistantSettings {
  /** Undefined: the offline responder answers from the documentation. */
  provider?: AssistantProvider;
  /** Requests per client address per minute. */
  rateLimitPerMinute: number;
  /** The longest one answer may take, provider calls and tool calls included. */
  timeoutMs: number;
}

export const DEFAULT_ASSISTANT_SETTINGS: AssistantSettings = { rateLimitPerMinute: 20, timeoutMs: 30_000 };
