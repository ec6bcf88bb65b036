// The open assistant (spec section 2): a panel titled 'AI Assistant' with a minimise toggle and
// a close button, the conversation and the input. About 600 px tall by 384 px wide at the
// bottom right; minimised, the header bar alone, 56 by 320 px. On small screens it fills the
// screen, and minimised it is a bar along the bottom. On larger screens it is a dialog that
// does not trap the focus (the page stays usable beside it); filling a phone's screen it hides
// the page, so there it keeps the focus inside (a modal). Escape closes it.
// This module, react-markdown with it, is a chunk of its own that the launcher loads on demand.
import CloseRounded from '@mui/icons-material/CloseRounded';
import MinimizeRounded from '@mui/icons-material/MinimizeRounded';
import OpenInFullRounded from '@mui/icons-material/OpenInFullRounded';
import SmartToyRounded from '@mui/icons-material/SmartToyRounded';
import { Box, IconButton, Paper, Typography, Unstable_TrapFocus as TrapFocus, useMediaQuery, useTheme } from '@mui/material';
import { useId, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { useLocation } from 'react-router';
import { useConversation } from '../stores/conversation-store';
import { AssistantComposer } from './assistant-composer';
import { AssistantMessageBubble } from './assistant-message-bubble';

/** Spec section 9. */
export const PANEL_SIZE = { width: 384, height: 600 } as const;
export const MINIMISED_SIZE = { width: 320, height: 56 } as const;
const EDGE_GAP_PX = 24;

export interface AssistantPanelProps {
  minimised: boolean;
  onToggleMinimised: () => void;
  onClose: () => void;
}

export function AssistantPanel({ minimised, onToggleMinimised, onClose }: AssistantPanelProps) {
  const titleId = useId();
  const messages = useConversation((state) => state.messages);
  const pending = useConversation((state) => state.pending);
  const send = useConversation((state) => state.send);
  const { pathname } = useLocation();
  const listRef = useRef<HTMLDivElement>(null);
  // 'Thinking...' until the first words of the reply arrive; from then on the reply itself shows progress.
  const thinking = pending && messages.at(-1)?.role === 'user';
  const streaming = pending && !thinking;
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm')) && !minimised;

  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, thinking, minimised]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };

  return (
    <TrapFocus open={fullScreen} disableAutoFocus disableRestoreFocus>
    <Paper
      role="dialog"
      aria-modal={fullScreen}
      aria-labelledby={titleId}
      elevation={12}
      onKeyDown={onKeyDown}
      sx={(theme) => ({
        position: 'fixed',
        zIndex: theme.zIndex.drawer + 1,
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
        border: 1,
        borderColor: 'divider',
        // Small screens: the whole screen, or a bar along the bottom when minimised.
        left: 0,
        right: 0,
        bottom: 0,
        top: minimised ? 'auto' : 0,
        height: minimised ? MINIMISED_SIZE.height : 'auto',
        borderRadius: 0,
        [theme.breakpoints.up('sm')]: {
          left: 'auto',
          top: 'auto',
          right: EDGE_GAP_PX,
          bottom: EDGE_GAP_PX,
          borderRadius: 3,
          width: minimised ? MINIMISED_SIZE.width : PANEL_SIZE.width,
          height: minimised ? MINIMISED_SIZE.height : PANEL_SIZE.height,
          maxHeight: `calc(100dvh - ${2 * EDGE_GAP_PX}px)`,
        },
      })}
    >
      <Box
        component="header"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, height: MINIMISED_SIZE.height, flexShrink: 0, pl: 2, pr: 1, bgcolor: 'primary.main', color: 'primary.contrastText' }}
      >
        <SmartToyRounded fontSize="small" aria-hidden />
        <Typography id={titleId} component="h2" sx={{ flex: 1, fontWeight: 700, fontSize: '1rem' }}>
          AI Assistant
        </Typography>
        <IconButton color="inherit" size="small" aria-label="Minimise" aria-pressed={minimised} onClick={onToggleMinimised}>
          {minimised ? <OpenInFullRounded fontSize="small" /> : <MinimizeRounded fontSize="small" />}
        </IconButton>
        <IconButton color="inherit" size="small" aria-label="Close" onClick={onClose}>
          <CloseRounded fontSize="small" />
        </IconButton>
      </Box>
      {/* Minimised hides the conversation but keeps it mounted: the draft and the scroll stay. */}
      <Box sx={{ display: minimised ? 'none' : 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
        <Box
          ref={listRef}
          role="log"
          aria-label="Conversation"
          aria-live="polite"
          // A streaming reply is announced once whole, not piece by piece.
          aria-busy={streaming}
          tabIndex={0}
          // overscrollBehavior: reaching the end of the list does not scroll the page behind it.
          sx={{ flex: 1, overflowY: 'auto', overscrollBehavior: 'contain', display: 'flex', flexDirection: 'column', gap: 1.5, p: 2, bgcolor: 'background.paper' }}
        >
          {messages.map((message, index) => (
            <AssistantMessageBubble key={index} message={message} index={index} />
          ))}
          {thinking ? (
            <Typography data-testid="assistant-thinking" sx={{ alignSelf: 'flex-start', color: 'text.secondary', fontStyle: 'italic', fontSize: '0.9375rem' }}>
              Thinking...
            </Typography>
          ) : null}
        </Box>
        <AssistantComposer pending={pending} onSend={(text) => void send(text, pathname)} autoFocus={!minimised} />
      </Box>
    </Paper>
    </TrapFocus>
  );
}
