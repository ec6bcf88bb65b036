// 'On this page' (wide screens only): the headings of the section the reader is in.
import { Box, Link, Typography } from '@mui/material';
import type { MouseEvent } from 'react';
import type { DocSection } from '../data/doc-sections';
import { onThisPage } from '../utils/docs-nav';
import { scrollToElement } from '../utils/scroll-to-element';

export function OnThisPage({ section }: { section: DocSection | undefined }) {
  if (!section) return null;
  const headings = onThisPage(section.headings);
  const follow = (event: MouseEvent, id: string) => {
    event.preventDefault();
    scrollToElement(id);
  };

  return (
    <Box component="nav" aria-labelledby="on-this-page-title">
      <Typography
        id="on-this-page-title"
        component="h2"
        sx={{ fontWeight: 700, fontSize: '0.75rem', letterSpacing: '0.06em', textTransform: 'uppercase', color: 'text.secondary', mb: 1 }}
      >
        On this page
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 700, mb: 1 }}>
        {section.title}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, borderLeft: 1, borderColor: 'divider' }}>
        {headings.map((heading) => (
          <li key={heading.slug}>
            <Link
              href={`#${heading.slug}`}
              onClick={(event: MouseEvent) => follow(event, heading.slug)}
              underline="hover"
              color="text.secondary"
              variant="body2"
              sx={{ display: 'block', py: 0.5, pl: 1.5, lineHeight: 1.4, '&:hover': { color: 'text.primary' } }}
            >
              {heading.text}
            </Link>
          </li>
        ))}
      </Box>
    </Box>
  );
}
