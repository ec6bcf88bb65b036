// A table row that opens on its details: the toggle in the row's first cell, and the row under
// it that holds the details, collapsed until opened (and empty until then, so details that
// load only load once asked for).
import KeyboardArrowDownRounded from '@mui/icons-material/KeyboardArrowDownRounded';
import KeyboardArrowRightRounded from '@mui/icons-material/KeyboardArrowRightRounded';
import { Box, Collapse, IconButton, TableCell, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

interface RowDetailsToggleProps {
  open: boolean;
  /** What opens, after 'Show' or 'Hide': 'data of entry 12'. */
  what: string;
  /** The id of the details it shows. */
  detailsId: string;
  onToggle: () => void;
}

export function RowDetailsToggle({ open, what, detailsId, onToggle }: RowDetailsToggleProps) {
  return (
    <IconButton size="small" aria-label={`${open ? 'Hide' : 'Show'} ${what}`} aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
      {open ? <KeyboardArrowDownRounded /> : <KeyboardArrowRightRounded />}
    </IconButton>
  );
}

interface RowDetailsProps {
  open: boolean;
  detailsId: string;
  /** The table's column count: the details span them all. */
  colSpan: number;
  children: ReactNode;
}

export function RowDetails({ open, detailsId, colSpan, children }: RowDetailsProps) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ py: 0, ...(open ? {} : { borderBottom: 0 }) }}>
        <Collapse in={open} timeout="auto" unmountOnExit>
          <Box id={detailsId} sx={{ py: 2 }}>
            {children}
          </Box>
        </Collapse>
      </TableCell>
    </TableRow>
  );
}
