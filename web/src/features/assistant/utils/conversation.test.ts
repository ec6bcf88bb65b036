import { ASSISTANT_LIMITS, type AssistantMessage } from '@purser/core';
import { describe, expect, it } from 'vitest';
import { requestMessages, requestPage, withReply } from './conversation';

const user = (content: string): AssistantMessage => ({ role: 'user', content });
const assistant = (content: string): AssistantMessage => ({ role: 'assistant', content });

describe('withReply', () => {
  it('starts a new assistant message when the last message is the user’s', () => {
    expect(withReply([assistant('Hi!'), user('Question')], 'An')).toEqual([assistant('Hi!'), user('Question'), assistant('An')]);
  });

  it('replaces the last assistant message with the reply so far', () => {
    expect(withReply([assistant('Hi!'), user('Question'), assistant('An')], 'An answer')).toEqual([assistant('Hi!'), user('Question'), assistant('An answer')]);
  });

  it('leaves the conversation it was given as it was', () => {
    const messages = [user('Question')];
    withReply(messages, 'Reply');
    expect(messages).toEqual([user('Question')]);
  });
});

describe('requestMessages', () => {
  it('sends the whole conversation while it is within the endpoint’s limits', () => {
    const messages = [assistant('Hi!'), user('How do I fund an agent?')];
    expect(requestMessages(messages)).toEqual(messages);
  });

  it('sends only the most recent messages of a long conversation, ending with the new question', () => {
    const messages = Array.from({ length: ASSISTANT_LIMITS.maxMessages + 5 }, (_, index) => (index % 2 ? user(`q${index}`) : assistant(`a${index}`)));
    messages.push(user('latest'));
    const sent = requestMessages(messages);
    expect(sent).toHaveLength(ASSISTANT_LIMITS.maxMessages);
    expect(sent.at(-1)).toEqual(user('latest'));
    expect(sent[0]).toEqual(messages[messages.length - ASSISTANT_LIMITS.maxMessages]);
  });

  it('shortens a message longer than the endpoint accepts', () => {
    const long = 'x'.repeat(ASSISTANT_LIMITS.maxMessageLength + 10);
    expect(requestMessages([assistant(long), user('More?')])[0]?.content).toHaveLength(ASSISTANT_LIMITS.maxMessageLength);
  });
});

describe('requestPage', () => {
  it('sends the path as it is, shortened past the endpoint’s limit', () => {
    expect(requestPage('/docs')).toBe('/docs');
    expect(requestPage(`/${'a'.repeat(ASSISTANT_LIMITS.maxPageLength)}`)).toHaveLength(ASSISTANT_LIMITS.maxPageLength);
  });
});
