// One section of /docs: its icon, title and subtitle, then its markdown. Its `##` headings
// become h3 under the section's h2. Anchored 96 px below the top, clear of the sticky bar.
import { Box, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { MarkdownView } from '../../../shared/markdown/markdown-view';
import type { DocSection } from '../data/doc-sections';
import { DOCS_SCROLL_OFFSET_PX } from '../utils/scroll-position';
import { sectionIcon } from '../utils/section-icons';

export function DocsSection({ section }: { section: DocSection }) {
  const Icon = sectionIcon(section.icon);
  const titleId = `${section.id}-title`;
  return (
    <Box
      component="section"
      id={section.id}
      aria-labelledby={titleId}
      // Focused (without scrolling) when the navigation leads here, for keyboard and screen readers.
      tabIndex={-1}
      sx={{ scrollMarginTop: `${DOCS_SCROLL_OFFSET_PX}px`, outline: 'none' }}
    >
      <Box component="header" sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', mb: 3 }}>
        <Box
          aria-hidden
          sx={(theme) => ({
            flexShrink: 0,
            display: 'grid',
            placeItems: 'center',
            width: 48,
            height: 48,
            borderRadius: '12px',
            color: 'primary.main',
            bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.18 : 0.1),
          })}
        >
          <Icon />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography id={titleId} variant="h4" component="h2" sx={{ fontWeight: 800, fontSize: { xs: '1.6rem', sm: '2rem' }, lineHeight: 1.2 }}>
            {section.title}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.75 }}>
            {section.subtitle}
          </Typography>
        </Box>
      </Box>
      <MarkdownView markdown={section.body} headingOffset={1} />
    </Box>
  );
}
