/**
 * POST /functions/v1/ai-assistant as the embedded default runs it, with no model provider:
 * answers from the documentation, streamed as the widget reads them (spec section 7); the
 * per-address rate limit; and the time limit, met by a silent or stalled provider (the FAKE of
 * support/fake-openai-provider.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUBLIC_ANON_KEY } from '@purser/core';
import { loadDocsIndex } from '../src/services/assistant/docs-index';
import { askAssistant, readEventStream, userSays } from './support/assistant-client';
import { startFakeProvider, type FakeProvider } from './support/fake-openai-provider';
import { createTestApp, type TestApp } from './support/test-app';

const RATE_LIMIT = 2;
const TIME_LIMIT_MS = 1_000;

let offline: TestApp;
let slow: TestApp;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider();
  [offline, slow] = await Promise.all([
    createTestApp({ assistant: { rateLimitPerMinute: RATE_LIMIT } }),
    createTestApp({ assistant: { provider: { apiKey: 'sk-test', baseUrl: provider.baseUrl, model: 'fake-model' }, timeoutMs: TIME_LIMIT_MS } }),
  ]);
  // Built once per process; built here, its first use does not eat into a time limit.
  await loadDocsIndex();
});

beforeEach(() => provider.reset());

afterAll(async () => {
  // fetch's connection pool may hold a connection open that never sent a request (after a
  // cut stream), which app.close() would wait on until the headers timeout.
  slow?.app.server.closeAllConnections();
  await offline?.cleanup();
  await slow?.cleanup();
  await provider?.close();
});

describe('the offline assistant', () => {
  it('answers a visitor from the documentation, in several chunks, [DONE] last', async () => {
    const response = await askAssistant(offline.app, userSays('How do I connect my agent to n8n?'), { remoteAddress: '198.51.100.1' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    // The security headers stay; nothing compresses or buffers the stream.
    expect(response.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(response.headers['content-encoding']).toBeUndefined();
    const stream = readEventStream(response.body);
    expect(stream.deltas.length).toBeGreaterThan(3);
    expect(stream.text).toMatch(/^I answer from the Purser documentation\./);
    expect(stream.text).toContain('[n8n](/docs#n8n)');
    expect(stream.events.at(-1)).toBe('[DONE]');
    expect(stream.done).toBe(true);
    expect(JSON.parse(stream.events[0]!)).toMatchObject({ object: 'chat.completion.chunk', model: 'purser-docs' });
  });

  it('answers the last message of a longer conversation', async () => {
    const response = await askAssistant(
      offline.app,
      userSays('What are your privacy commitments?', [
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'How do I fund my agent?' },
        { role: 'assistant', content: 'Use Fund Agent on the dashboard.' },
      ]),
      { remoteAddress: '198.51.100.2' },
    );
    expect(response.statusCode).toBe(200);
    expect(readEventStream(response.body).text).toContain('[Privacy Policy](/privacy)');
  });
});

describe('the rate limit', () => {
  it('answers 429 RATE_LIMITED past the per-address limit, while other addresses go on', async () => {
    for (let request = 1; request <= RATE_LIMIT; request++) {
      const response = await askAssistant(offline.app, userSays('docs'), { remoteAddress: '203.0.113.7' });
      expect(response.statusCode).toBe(200);
    }
    const limited = await askAssistant(offline.app, userSays('docs'), { remoteAddress: '203.0.113.7' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests\./) } });

    const elsewhere = await askAssistant(offline.app, userSays('docs'), { remoteAddress: '203.0.113.8' });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('the time limit', () => {
  it('answers 503 UNAVAILABLE when the provider says nothing in time', async () => {
    provider.script({ kind: 'silence' });
    const response = await askAssistant(slow.app, userSays('Are you there?'));
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: { code: 'UNAVAILABLE', message: 'The assistant took too long to answer. Please try again.' } });
    // The provider's request was given up, not left open.
    await provider.requests.at(-1)!.closed;
  });

  it('ends a stalled stream with an error event and a cut connection, never [DONE]', async () => {
    // The rest of the answer never comes.
    provider.script({ kind: 'text', chunks: ['The first words', ' and no more'], holdAfterFirst: new Promise<void>(() => {}) });
    const address = await slow.app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${address}/functions/v1/ai-assistant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${PUBLIC_ANON_KEY}` },
      body: JSON.stringify({ messages: userSays('Tell me a long story'), currentPage: '/' }),
    });
    expect(response.status).toBe(200);

    let body = '';
    let failure: unknown;
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (let part = await reader.read(); !part.done; part = await reader.read()) body += decoder.decode(part.value, { stream: true });
    } catch (error) {
      failure = error;
    }
    const stream = readEventStream(body);
    expect(stream.text).toBe('The first words');
    expect(stream.errors).toEqual([{ code: 'UNAVAILABLE', message: 'The assistant took too long to answer. Please try again.' }]);
    expect(stream.events).not.toContain('[DONE]');
    expect(failure).toBeInstanceOf(Error);
  });
});
