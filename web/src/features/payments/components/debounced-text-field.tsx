// A text field whose value is committed a moment after typing stops (or at once on Enter), so
// a filter kept in the URL does not navigate, and query the server, on every keystroke. The
// field shows what is typed; a value changed from outside (Reset, a link) replaces it.
import { TextField, type TextFieldProps } from '@mui/material';
import { useEffect, useRef, useState } from 'react';

const DEFAULT_DELAY_MS = 300;

type Props = Omit<TextFieldProps, 'value' | 'onChange'> & {
  value: string;
  onCommit: (value: string) => void;
  delayMs?: number;
  /** What is wrong with the text as typed (not committed while wrong), or null. */
  validate?: (text: string) => string | null;
};

export function DebouncedTextField({ value, onCommit, delayMs = DEFAULT_DELAY_MS, validate, error, helperText, onKeyDown, ...props }: Props) {
  const [draft, setDraft] = useState(value);
  const [committed, setCommitted] = useState(value);
  // The value moved under the field (Reset, back/forward): show it, unless it is what is
  // typed already (the URL keeps the search trimmed; the typist's trailing space stays).
  if (value !== committed) {
    setCommitted(value);
    if (draft.trim() !== value.trim()) setDraft(value);
  }

  // The timer calls the newest onCommit, which knows the newest state of the other filters.
  const latestCommit = useRef(onCommit);
  useEffect(() => {
    latestCommit.current = onCommit;
  });
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const problem = draft.trim() && validate ? validate(draft) : null;

  const commit = (text: string, delay: number) => {
    window.clearTimeout(timer.current);
    if (text.trim() && validate?.(text)) return;
    timer.current = window.setTimeout(() => latestCommit.current(text.trim()), delay);
  };

  return (
    <TextField
      {...props}
      value={draft}
      error={Boolean(problem) || error}
      helperText={problem ?? helperText}
      onChange={(event) => {
        setDraft(event.target.value);
        commit(event.target.value, delayMs);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          commit(draft, 0);
        }
        onKeyDown?.(event);
      }}
    />
  );
}
