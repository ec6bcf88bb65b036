// A table wider than a phone: it scrolls sideways inside a region that takes focus, so keyboards
// can scroll it too, and a line on narrow screens says so. The region is positioned so the
// screen-reader-only column names inside it scroll (and clip) with it.
import { Table, TableContainer, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface SidewaysScrollTableProps {
  /** The region's accessible name. */
  label: string;
  minWidth: number;
  /** The table's head and body. */
  children: ReactNode;
}

export function SidewaysScrollTable({ label, minWidth, children }: SidewaysScrollTableProps) {
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', md: 'none' }, mb: 1 }}>
        Scroll the table sideways to see every column.
      </Typography>
      <TableContainer tabIndex={0} role="region" aria-label={label} sx={{ overflowX: 'auto', position: 'relative' }}>
        <Table size="small" sx={{ minWidth }}>
          {children}
        </Table>
      </TableContainer>
    </>
  );
}
