// One message of the conversation, at most 80% of the list's width (spec section 2): the
// user's on the right as plain text with its line breaks, the assistant's on the left as
// markdown.
import { Box } from '@mui/material';
import { alpha, type Theme } from '@mui/material/styles';
import type { AssistantMessage } from '@purser/core';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { AssistantMarkdown } from './assistant-markdown';

interface AssistantMessageBubbleProps {
  message: AssistantMessage;
  /** The message's place in the conversation: keeps its footnote ids apart from the others'. */
  index: number;
}

export function AssistantMessageBubble({ message, index }: AssistantMessageBubbleProps) {
  const mine = message.role === 'user';
  return (
    <Box
      data-role={message.role}
      sx={(theme) => ({
        alignSelf: mine ? 'flex-end' : 'flex-start',
        maxWidth: '80%',
        minWidth: 0,
        px: 1.5,
        py: 1,
        borderRadius: 2,
        fontSize: '0.9375rem',
        lineHeight: 1.55,
        overflowWrap: 'anywhere',
        ...(mine
          ? { bgcolor: 'primary.main', color: 'primary.contrastText', borderBottomRightRadius: 4, whiteSpace: 'pre-wrap' }
          : { ...replyStyles(theme), borderBottomLeftRadius: 4 }),
      })}
    >
      <span style={visuallyHidden}>{mine ? 'You: ' : 'Assistant: '}</span>
      {mine ? message.content : <AssistantMarkdown markdown={message.content} idPrefix={`assistant-message-${index}-`} />}
    </Box>
  );
}

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

function replyStyles(theme: Theme) {
  const dark = theme.palette.mode === 'dark';
  const line = theme.palette.divider;
  return {
    bgcolor: dark ? alpha('#ffffff', 0.07) : theme.palette.grey[100],
    color: 'text.primary',
    '& > :first-of-type': { mt: 0 },
    '& p': { my: 1 },
    '& p:first-of-type': { mt: 0 },
    '& p:last-child': { mb: 0 },
    '& h1, & h2, & h3, & h4, & h5, & h6': { fontSize: '1rem', fontWeight: 700, mt: 1.5, mb: 0.5 },
    '& ul, & ol': { pl: 2.5, my: 1 },
    '& li': { my: 0.25 },
    '& ul.contains-task-list': { listStyle: 'none', pl: 0.5 },
    '& li.task-list-item input': { mr: 0.75, verticalAlign: 'middle' },
    '& a': { color: 'primary.main', fontWeight: 500, textUnderlineOffset: '2px' },
    '& img': { maxWidth: '100%', height: 'auto', display: 'block', my: 1 },
    '& code': { fontFamily: MONO, fontSize: '0.85em' },
    '& :not(pre) > code': { px: 0.5, borderRadius: '4px', bgcolor: alpha(theme.palette.primary.main, dark ? 0.16 : 0.08) },
    '& pre': { overflowX: 'auto', p: 1, borderRadius: 1, bgcolor: alpha(theme.palette.text.primary, 0.06), my: 1 },
    '& blockquote': { m: 0, my: 1, pl: 1.5, borderLeft: `3px solid ${line}`, color: 'text.secondary' },
    '& .table-scroll': { overflowX: 'auto', my: 1 },
    '& table': { borderCollapse: 'collapse', fontSize: '0.875rem' },
    '& th, & td': { border: `1px solid ${line}`, px: 1, py: 0.5, textAlign: 'left', verticalAlign: 'top' },
    '& th': { fontWeight: 700 },
    '& sup': { lineHeight: 0 },
    '& section.footnotes': { mt: 1.5, pt: 1, borderTop: `1px solid ${line}`, fontSize: '0.8125rem' },
    '& section.footnotes ol': { my: 0.5 },
    '& .sr-only': visuallyHidden,
  };
}
