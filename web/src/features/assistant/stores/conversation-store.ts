// The conversation with the assistant, in memory only (spec section 4): it lives as long as the
// page does, so closing and reopening the widget or moving between pages keeps it, and a reload
// starts again from the greeting. Loaded with the panel, not with the page.
import { ASSISTANT_ERROR_MESSAGE, ASSISTANT_GREETING, type AssistantMessage } from '@purser/core';
import { createStore, useStore } from 'zustand';
import { askAssistant } from '../api/ask-assistant';
import { requestMessages, requestPage, withReply } from '../utils/conversation';

export interface ConversationState {
  messages: AssistantMessage[];
  /** A question is on its way: input and send are disabled until the reply ends or fails. */
  pending: boolean;
  /** Sends `text` (ignored when blank or while a reply is pending) asked from `currentPage`. */
  send: (text: string, currentPage: string) => Promise<void>;
}

export const conversationStore = createStore<ConversationState>()((set, get) => ({
  messages: [{ role: 'assistant', content: ASSISTANT_GREETING }],
  pending: false,
  send: async (text, currentPage) => {
    const content = text.trim();
    if (!content || get().pending) return;
    const messages: AssistantMessage[] = [...get().messages, { role: 'user', content }];
    set({ messages, pending: true });
    try {
      const reply = await askAssistant({
        messages: requestMessages(messages),
        currentPage: requestPage(currentPage),
        onText: (soFar) => set({ messages: withReply(get().messages, soFar) }),
      });
      // [DONE] with no text would leave the question unanswered on screen.
      if (!reply) throw new Error('The assistant sent an empty reply');
    } catch (error) {
      console.error('The assistant could not answer:', error);
      set({ messages: [...get().messages, { role: 'assistant', content: ASSISTANT_ERROR_MESSAGE }] });
    } finally {
      set({ pending: false });
    }
  },
}));

export function useConversation<T>(selector: (state: ConversationState) => T): T {
  return useStore(conversationStore, selector);
}
