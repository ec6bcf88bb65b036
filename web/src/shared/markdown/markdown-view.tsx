// A markdown document rendered with the product's typography: readable line length and
// spacing, code blocks that scroll sideways, tables inside their own scrolling box.
import { Box, type SxProps } from '@mui/material';
import { alpha, type Theme } from '@mui/material/styles';
import { useMemo } from 'react';
import { renderMarkdown } from './render-markdown';

/** Anchor targets stop this far below the top of the window, clear of the sticky top bar. */
export const ANCHOR_OFFSET_PX = 96;

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

interface MarkdownViewProps {
  markdown: string;
  /** Added to each heading's level, e.g. 1 when the document sits under an h2. */
  headingOffset?: number;
}

export function MarkdownView({ markdown, headingOffset = 0 }: MarkdownViewProps) {
  const content = useMemo(() => renderMarkdown(markdown, { headingOffset }), [markdown, headingOffset]);
  return (
    <Box className="markdown" sx={markdownStyles}>
      {content}
    </Box>
  );
}

const markdownStyles: SxProps<Theme> = (theme) => ({
  color: 'text.primary',
  fontSize: '1rem',
  lineHeight: 1.7,
  overflowWrap: 'anywhere',
  '& > :first-child': { mt: 0 },
  '& h2, & h3, & h4, & h5, & h6': {
    scrollMarginTop: `${ANCHOR_OFFSET_PX}px`,
    fontWeight: 700,
    lineHeight: 1.3,
    mt: 4,
    mb: 1.5,
    overflowWrap: 'normal',
  },
  '& h2': { fontSize: '1.6rem' },
  '& h3': { fontSize: '1.3rem' },
  '& h4': { fontSize: '1.1rem' },
  '& h5, & h6': { fontSize: '1rem' },
  '& p': { my: 1.5 },
  '& ul, & ol': { pl: 3, my: 1.5 },
  '& li': { my: 0.5 },
  '& li > p': { my: 0.5 },
  '& a': {
    color: 'primary.main',
    textDecorationThickness: '1px',
    textUnderlineOffset: '2px',
    fontWeight: 500,
  },
  '& strong': { fontWeight: 700 },
  '& :not(pre) > code': {
    fontFamily: MONO,
    fontSize: '0.875em',
    px: 0.5,
    py: 0.125,
    borderRadius: '4px',
    bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.16 : 0.08),
    overflowWrap: 'anywhere',
  },
  '& .md-code': {
    position: 'relative',
    my: 2,
    borderRadius: '8px',
    border: 1,
    borderColor: theme.palette.mode === 'dark' ? 'divider' : 'transparent',
    // The same dark panel in both themes: code reads best as light text on dark.
    bgcolor: '#0f172a',
    color: '#e2e8f0',
    overflow: 'hidden',
  },
  '& .md-code-lang': {
    display: 'block',
    px: 2,
    pt: 1,
    fontFamily: MONO,
    fontSize: '0.75rem',
    letterSpacing: '0.04em',
    textTransform: 'uppercase',
    color: '#94a3b8',
  },
  '& pre': {
    m: 0,
    px: 2,
    py: 1.5,
    overflowX: 'auto',
    fontFamily: MONO,
    fontSize: '0.85rem',
    lineHeight: 1.6,
    overflowWrap: 'normal',
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.light}`, outlineOffset: -2 },
  },
  '& .md-table': {
    my: 2,
    overflowX: 'auto',
    border: 1,
    borderColor: 'divider',
    borderRadius: '8px',
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
  },
  '& table': { width: '100%', borderCollapse: 'collapse', fontSize: '0.9rem', lineHeight: 1.5 },
  '& th, & td': {
    px: 1.5,
    py: 1,
    textAlign: 'left',
    verticalAlign: 'top',
    borderBottom: 1,
    borderColor: 'divider',
    overflowWrap: 'normal',
    minWidth: '6rem',
  },
  '& th': { fontWeight: 700, bgcolor: 'action.hover', whiteSpace: 'nowrap' },
  '& tbody tr:last-of-type td': { borderBottom: 0 },
  '& blockquote': {
    mx: 0,
    my: 2,
    pl: 2,
    borderLeft: 4,
    borderColor: 'primary.main',
    color: 'text.secondary',
  },
  '& hr': { border: 0, borderTop: 1, borderColor: 'divider', my: 4 },
  '& img': { maxWidth: '100%' },
});
