// One page of audit entries (up to 50, newest first) as table rows; the audit page itself shows
// the states of the first page before the table exists (loading, error, no entries). The page after it, once
// asked for, starts at this page's cursor and renders itself below: each page is its own
// audit.list query, so invalidating audit.list refreshes every page shown.
import { Alert, Button, Skeleton, TableCell, TableRow } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../shared/trpc';
import { auditListInput, type AuditFilters } from '../utils/audit-filters';
import { errorMessage } from '../utils/trpc-errors';
import { AuditEntryRow, AUDIT_COLUMN_COUNT } from './audit-entry-row';
import { visuallyHidden } from '../utils/visually-hidden';

interface AuditEntriesPageProps {
  filters: AuditFilters;
  cursor: string | null;
  /** 0 for the newest page. */
  index: number;
  pagesShown: number;
  onMore: () => void;
  onFilterSubject: (subject: string) => void;
}

export function AuditEntriesPage({ filters, cursor, index, pagesShown, onMore, onFilterSubject }: AuditEntriesPageProps) {
  const trpc = useTRPC();
  const page = useQuery({ ...trpc.audit.list.queryOptions(auditListInput(filters, cursor)), placeholderData: keepPreviousData });

  if (page.isPending) {
    return (
      <TableRow aria-busy="true">
        <TableCell colSpan={AUDIT_COLUMN_COUNT}>
          <span style={visuallyHidden}>{index === 0 ? 'Loading audit entries' : 'Loading more audit entries'}</span>
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} variant="text" height={32} />
          ))}
        </TableCell>
      </TableRow>
    );
  }
  if (page.isError && !page.data) {
    return (
      <TableRow>
        <TableCell colSpan={AUDIT_COLUMN_COUNT}>
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void page.refetch()}>
                Retry
              </Button>
            }
          >
            {errorMessage(page.error, 'Unable to load the audit entries.')}
          </Alert>
        </TableCell>
      </TableRow>
    );
  }

  // The page draws the first page's empty state itself, outside the table.
  const { entries, nextCursor } = page.data;
  const last = index + 1 === pagesShown;
  return (
    <>
      {entries.map((entry) => (
        <AuditEntryRow key={entry.seq} entry={entry} onFilterSubject={onFilterSubject} />
      ))}
      {nextCursor && !last ? (
        <AuditEntriesPage filters={filters} cursor={nextCursor} index={index + 1} pagesShown={pagesShown} onMore={onMore} onFilterSubject={onFilterSubject} />
      ) : null}
      {nextCursor && last ? (
        <TableRow>
          <TableCell colSpan={AUDIT_COLUMN_COUNT} sx={{ textAlign: 'center', borderBottom: 0 }}>
            <Button onClick={onMore}>Load more</Button>
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}
