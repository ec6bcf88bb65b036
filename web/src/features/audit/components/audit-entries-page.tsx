// One page of audit entries (up to 50, newest first) as table rows, and below it the page after
// it or 'Load more' (shared/components/cursor-page-rows.tsx). Each page is its own audit.list
// query, so invalidating audit.list refreshes every page shown.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CursorPageRows } from '../../../shared/components/cursor-page-rows';
import { useTRPC } from '../../../shared/trpc';
import { auditListInput, type AuditFilters } from '../utils/audit-filters';
import { errorMessage } from '../utils/trpc-errors';
import { AuditEntryRow, AUDIT_COLUMN_COUNT } from './audit-entry-row';

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
  return (
    <CursorPageRows
      page={page}
      columnCount={AUDIT_COLUMN_COUNT}
      index={index}
      pagesShown={pagesShown}
      onMore={onMore}
      loadingLabel={index === 0 ? 'Loading audit entries' : 'Loading more audit entries'}
      skeletonRows={4}
      errorText={(error) => errorMessage(error, 'Unable to load the audit entries.')}
      rows={({ entries }) => entries.map((entry) => <AuditEntryRow key={entry.seq} entry={entry} onFilterSubject={onFilterSubject} />)}
      nextPage={(nextCursor) => (
        <AuditEntriesPage filters={filters} cursor={nextCursor} index={index + 1} pagesShown={pagesShown} onMore={onMore} onFilterSubject={onFilterSubject} />
      )}
    />
  );
}
