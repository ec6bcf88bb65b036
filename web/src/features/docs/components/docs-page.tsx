// Route '/docs': the documentation hub. Quick links on top, then the nine sections of
// docs-content/docs in one page, with the grouped navigation on the left and, on wide
// screens, 'On this page' on the right.
import { DOC_SECTION_IDS } from '@purser/docs-content/browser';
import { Box, Button, Divider, Typography } from '@mui/material';
import { Fragment, useSyncExternalStore } from 'react';
import { Link as RouterLink } from 'react-router';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { docSections } from '../data/doc-sections';
import { useActiveSection } from '../hooks/use-active-section';
import { DocsNav } from './docs-nav';
import { DocsQuickLinks } from './docs-quick-links';
import { DocsSection } from './docs-section';
import { OnThisPage } from './on-this-page';

const TITLE = 'Documentation';
const SUBTITLE = 'Create agent wallets, set spending rules and connect agents over MCP, REST and x402.';

/** Spec section 2: the page shows today's date (the reader's) as its 'Last updated' date. */
function todayIso(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const neverChanges = () => () => undefined;

/**
 * Today's date in the reader's time zone, or null while a pre-rendered page is hydrated: the
 * build knows neither the day nor the zone the page will be read in, so the date appears right
 * after hydration (React reads the server snapshot while hydrating, the browser's one after).
 */
function useToday(): { text: string; iso: string } | null {
  const iso = useSyncExternalStore(neverChanges, todayIso, () => null);
  if (iso === null) return null;
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return { iso, text: new Date(year, month - 1, day).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }) };
}

export function DocsPage() {
  const activeId = useActiveSection(DOC_SECTION_IDS);
  const activeSection = docSections.find((section) => section.id === activeId);

  return (
    <PublicPageLayout
      title={TITLE}
      description={SUBTITLE}
      hero={<DocsHero />}
      maxWidth="xl"
      actions={
        <>
          <BackToHomeLink />
          <Button component={RouterLink} to="/dashboard" color="inherit">
            Go to dashboard
          </Button>
        </>
      }
    >
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '220px minmax(0, 1fr)', lg: '230px minmax(0, 1fr) 220px' },
          gap: { xs: 3, md: 5, lg: 6 },
          alignItems: 'start',
        }}
      >
        <Box sx={{ position: { md: 'sticky' }, top: { md: 88 }, maxHeight: { md: 'calc(100vh - 104px)' }, overflowY: { md: 'auto' } }}>
          <DocsNav sections={docSections} activeId={activeId} />
        </Box>
        <Box sx={{ minWidth: 0, maxWidth: 860 }}>
          {docSections.map((section, index) => (
            <Fragment key={section.id}>
              {index > 0 && <Divider sx={{ my: { xs: 5, md: 7 } }} />}
              <DocsSection section={section} />
            </Fragment>
          ))}
        </Box>
        <Box sx={{ display: { xs: 'none', lg: 'block' }, position: 'sticky', top: 88, maxHeight: 'calc(100vh - 104px)', overflowY: 'auto' }}>
          <OnThisPage section={activeSection} />
        </Box>
      </Box>
    </PublicPageLayout>
  );
}

function DocsHero() {
  const updated = useToday();
  return (
    <Box component="header" sx={{ mb: { xs: 4, md: 6 } }}>
      <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '2.1rem', sm: '3rem' } }}>
        {TITLE}
      </Typography>
      <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 1, fontWeight: 400, maxWidth: '60ch' }}>
        {SUBTITLE}
      </Typography>
      {/* The line keeps its height while the date is unknown, so nothing below it moves. */}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5, minHeight: '1.43em' }}>
        {updated && (
          <>
            Last updated <time dateTime={updated.iso}>{updated.text}</time>
          </>
        )}
      </Typography>
      <Box sx={{ mt: 3 }}>
        <DocsQuickLinks />
      </Box>
    </Box>
  );
}
