// Frame shared by the legal pages: the document's title, summary and last update, then its
// markdown from docs-content (which ends with its own Back to home link).
import { parseTextDate, type LegalPageId } from '@purser/docs-content/browser';
import { Box, Typography } from '@mui/material';
import { useMemo } from 'react';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { MarkdownView } from '../../../shared/markdown/markdown-view';
import { legalDocument } from '../data/legal-pages';

export function LegalPage({ id }: { id: LegalPageId }) {
  const page = useMemo(() => legalDocument(id), [id]);
  return (
    <PublicPageLayout
      title={page.title}
      description={page.summary}
      actions={<BackToHomeLink />}
      hero={
        <Box component="header" sx={{ mb: { xs: 3, md: 4 }, pb: { xs: 3, md: 4 }, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '2.1rem', sm: '3rem' } }}>
            {page.title}
          </Typography>
          <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 1, fontWeight: 400 }}>
            {page.summary}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            Last updated <time dateTime={parseTextDate(page.updated)?.toISOString().slice(0, 10)}>{page.updated}</time>
          </Typography>
        </Box>
      }
    >
      <MarkdownView markdown={page.body} />
    </PublicPageLayout>
  );
}
