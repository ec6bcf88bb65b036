// Route '/dashboard/audit': the owner's hash-chained audit log: the chain's verification,
// the entries newest first (filtered by action, subject and dates, kept in the address), and
// the JSON Lines export that `npm run audit:verify -- --file` checks.
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import RefreshRounded from '@mui/icons-material/RefreshRounded';
import { Box, Button, Card, CardContent, Container, Skeleton, Stack, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SidewaysScrollTable } from '../../../shared/components/sideways-scroll-table';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import { auditListInput, filtersFromParams, filtersKey, filtersToParams, hasFilters, type AuditFilters } from '../utils/audit-filters';
import { errorMessage } from '../utils/trpc-errors';
import { AuditEntriesPage } from './audit-entries-page';
import { AuditFiltersBar } from './audit-filters-bar';
import { AuditVerification } from './audit-verification';

/** Sent with the session cookie by the browser itself: a plain link, not a fetch. */
const EXPORT_URL = '/api/v1/audit-entries/export';
// Entry and action first: on a phone they are what shows before the table is scrolled.
const COLUMNS = ['Entry', 'Action', 'Subject', 'Time', 'Actor', 'Data'] as const;

export function AuditPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersFromParams(searchParams);
  const key = filtersKey(filters);
  const [pages, setPages] = useState({ key, shown: 1 });
  // A change of filters starts again from the newest page.
  const pagesShown = pages.key === key ? pages.shown : 1;
  // The newest page, read here for the loading, error and empty states (drawn outside the table,
  // which scrolls sideways on a phone); its rows share this query with AuditEntriesPage.
  const first = useQuery(trpc.audit.list.queryOptions(auditListInput(filters, null)));
  const refreshing = useIsFetching({ queryKey: trpc.audit.list.queryKey() }) > 0;

  const apply = (next: AuditFilters) => setSearchParams((current) => filtersToParams(next, current));

  return (
    <Container component="main" maxWidth="xl" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' }, mb: 3 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            Audit log
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1, maxWidth: 760 }}>
            Every payment, decision, approval and change to your agents, policies and keys, in order. Each entry carries the hash of the one
            before it, so an altered or missing entry breaks the chain.
          </Typography>
        </Box>
        <Button component="a" href={EXPORT_URL} download variant="outlined" startIcon={<DownloadRounded />} sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', md: 'auto' } }}>
          Download export (JSON Lines)
        </Button>
      </Stack>

      <Stack spacing={3}>
        <Box component="section" aria-label="Verification">
          <AuditVerification />
        </Box>

        <Card variant="outlined" component="section" aria-labelledby="audit-entries-title">
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
              <Typography variant="h6" component="h2" id="audit-entries-title">
                Entries
              </Typography>
              <Button
                size="small"
                variant="outlined"
                startIcon={<RefreshRounded />}
                disabled={refreshing}
                onClick={() => void queryClient.invalidateQueries({ queryKey: trpc.audit.list.queryKey() })}
              >
                {refreshing ? 'Refreshing...' : 'Refresh'}
              </Button>
            </Stack>
            <AuditFiltersBar filters={filters} onApply={apply} />
            <Box sx={{ mt: 2 }}>
              {first.isPending ? (
                <Box aria-busy="true" aria-label="Loading audit entries">
                  {[0, 1, 2, 3].map((row) => (
                    <Skeleton key={row} variant="text" height={40} />
                  ))}
                </Box>
              ) : first.isError ? (
                <RetryAlert onRetry={() => void first.refetch()}>{errorMessage(first.error, 'Unable to load the audit entries.')}</RetryAlert>
              ) : first.data.entries.length === 0 ? (
                <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
                  {hasFilters(filters) ? 'No entries match these filters.' : 'No audit entries yet.'}
                </Typography>
              ) : (
                <SidewaysScrollTable label="Audit entries" minWidth={1000}>
                  <TableHead>
                    <TableRow>
                      <TableCell padding="checkbox">
                        <span style={visuallyHidden}>Details</span>
                      </TableCell>
                      {COLUMNS.map((column) => (
                        <TableCell key={column} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                          {column}
                        </TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    <AuditEntriesPage
                      key={key}
                      filters={filters}
                      cursor={null}
                      index={0}
                      pagesShown={pagesShown}
                      onMore={() => setPages({ key, shown: pagesShown + 1 })}
                      onFilterSubject={(subject) => apply({ ...filters, subject })}
                    />
                  </TableBody>
                </SidewaysScrollTable>
              )}
            </Box>
          </CardContent>
        </Card>
      </Stack>
    </Container>
  );
}
