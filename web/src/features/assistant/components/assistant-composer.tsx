// The input and the send button (spec sections 2 and 5): a message goes only when it is not
// blank and no reply is pending; Enter sends, Shift+Enter starts a new line. Both are disabled
// while a reply is pending, and the input has the focus back once it ends.
import SendRounded from '@mui/icons-material/SendRounded';
// OutlinedInput, not TextField: the same field without the label and select machinery
// (TextField brings Select, Menu and Modal into the panel's download).
import { Box, IconButton, OutlinedInput } from '@mui/material';
import { ASSISTANT_LIMITS } from '@purser/core';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

interface AssistantComposerProps {
  pending: boolean;
  onSend: (text: string) => void;
  /** Takes the focus when it becomes true (the panel opened or was restored). */
  autoFocus: boolean;
}

export function AssistantComposer({ pending, onSend, autoFocus }: AssistantComposerProps) {
  const [draft, setDraft] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const wasPending = useRef(pending);
  const canSend = !pending && draft.trim() !== '';

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  // Disabling the input took its focus away; give it back unless the user has moved elsewhere.
  useEffect(() => {
    const ended = wasPending.current && !pending;
    wasPending.current = pending;
    if (ended && (document.activeElement === document.body || document.activeElement === null)) inputRef.current?.focus();
  }, [pending]);

  const send = () => {
    if (!canSend) return;
    onSend(draft);
    setDraft('');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Enter while an input method composes a word confirms the word, it does not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <Box component="form" onSubmit={onSubmit} sx={{ display: 'flex', alignItems: 'flex-end', gap: 1, p: 1.5, borderTop: 1, borderColor: 'divider' }}>
      <OutlinedInput
        multiline
        maxRows={5}
        fullWidth
        size="small"
        placeholder="Ask me anything..."
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        disabled={pending}
        inputRef={inputRef}
        slotProps={{ input: { 'aria-label': 'Message to the AI Assistant', maxLength: ASSISTANT_LIMITS.maxMessageLength, onKeyDown } }}
      />
      <IconButton type="submit" color="primary" aria-label="Send" disabled={!canSend} sx={{ mb: '2px' }}>
        <SendRounded />
      </IconButton>
    </Box>
  );
}
