// One page of a table paged by cursor, as table rows. Each page is its own query: the first
// starts at no cursor, and each page after it, once asked for, starts at the cursor of the page
// before and renders itself below it. So invalidating the list's queries refreshes every page
// shown, and a refreshed page hands the next one its new cursor. The list draws the first
// page's loading, error and empty states itself, outside the table; a later page shows its
// loading and error states as a row.
import { Button, Skeleton, TableCell, TableRow } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { visuallyHidden } from '../a11y/visually-hidden';
import { RetryAlert } from './retry-alert';

interface CursorPageRowsProps<Page extends { nextCursor: string | null }> {
  page: UseQueryResult<Page, unknown>;
  columnCount: number;
  /** 0 for the newest page. */
  index: number;
  pagesShown: number;
  onMore: () => void;
  /** Read to screen readers while the page loads. */
  loadingLabel: string;
  skeletonRows: number;
  errorText: (error: unknown) => string;
  /** This page's own rows. */
  rows: (page: Page) => ReactNode;
  /** The page after this one, starting at `cursor`. */
  nextPage: (cursor: string) => ReactNode;
}

export function CursorPageRows<Page extends { nextCursor: string | null }>({
  page,
  columnCount,
  index,
  pagesShown,
  onMore,
  loadingLabel,
  skeletonRows,
  errorText,
  rows,
  nextPage,
}: CursorPageRowsProps<Page>) {
  if (page.isPending) {
    return (
      <TableRow aria-busy="true">
        <TableCell colSpan={columnCount}>
          <span style={visuallyHidden}>{loadingLabel}</span>
          {Array.from({ length: skeletonRows }, (_, row) => (
            <Skeleton key={row} variant="text" height={32} />
          ))}
        </TableCell>
      </TableRow>
    );
  }
  // Past pending, a page without data is one whose load failed (a failed refresh keeps its rows).
  const { data } = page;
  if (data === undefined) {
    return (
      <TableRow>
        <TableCell colSpan={columnCount}>
          <RetryAlert onRetry={() => void page.refetch()}>{errorText(page.error)}</RetryAlert>
        </TableCell>
      </TableRow>
    );
  }

  const { nextCursor } = data;
  const last = index + 1 === pagesShown;
  return (
    <>
      {rows(data)}
      {nextCursor && !last ? nextPage(nextCursor) : null}
      {nextCursor && last ? (
        <TableRow>
          <TableCell colSpan={columnCount} sx={{ textAlign: 'center', borderBottom: 0 }}>
            <Button onClick={onMore}>Load more</Button>
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}
