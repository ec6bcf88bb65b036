// The assistant widget on every page (spec sections 2 and 4): closed, a round button at the
// bottom right; open or minimised, the panel. Only the button ships with the page: the panel,
// with the conversation and the markdown renderer, is a chunk fetched when the pointer or the
// focus reaches the button (ahead of the click) or, at the latest, on opening.
// Closing gives the focus back to the button.
import ChatRounded from '@mui/icons-material/ChatRounded';
import { CircularProgress, Fab } from '@mui/material';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import { toast } from 'sonner';
import { ASSISTANT_BUTTON_OFFSET } from '../../../shared/layout/assistant-button-space';
import type { AssistantPanelProps } from './assistant-panel';

type View = 'closed' | 'open' | 'minimised';

const loadPanel = () => import('./assistant-panel');

export function AssistantLauncher() {
  const [view, setView] = useState<View>('closed');
  const [Panel, setPanel] = useState<ComponentType<AssistantPanelProps> | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (view !== 'closed' || !returnFocus.current) return;
    returnFocus.current = false;
    buttonRef.current?.focus();
  }, [view]);

  const open = () => {
    setView('open');
    if (Panel) return;
    loadPanel().then(
      (module) => setPanel(() => module.AssistantPanel),
      (error: unknown) => {
        console.error('The assistant panel could not be loaded:', error);
        setView('closed');
        toast.error('The assistant could not be loaded. Please try again.');
      },
    );
  };

  const prefetch = () => {
    // A failed prefetch is only a missed head start: opening asks again and reports a failure.
    loadPanel().catch(() => undefined);
  };

  if (view !== 'closed' && Panel) {
    return (
      <Panel
        minimised={view === 'minimised'}
        onToggleMinimised={() => setView(view === 'minimised' ? 'open' : 'minimised')}
        onClose={() => {
          returnFocus.current = true;
          setView('closed');
        }}
      />
    );
  }

  const loading = view !== 'closed';
  return (
    <Fab
      ref={buttonRef}
      color="primary"
      aria-label="Open AI Assistant"
      aria-busy={loading}
      onClick={open}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      sx={(theme) => ({
        position: 'fixed',
        right: ASSISTANT_BUTTON_OFFSET,
        bottom: ASSISTANT_BUTTON_OFFSET,
        zIndex: theme.zIndex.speedDial,
      })}
    >
      {loading ? <CircularProgress size={24} color="inherit" aria-hidden /> : <ChatRounded />}
    </Fab>
  );
}
