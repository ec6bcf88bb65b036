// An audit entry as a table row: its position in the chain, action, subject (a link to the
// payment's or agent's page), time, actor and a one-line preview of its data; opened, the whole data
// and the hashes that chain it to the entry before.
import FilterAltOutlined from '@mui/icons-material/FilterAltOutlined';
import { Box, IconButton, Link, Stack, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RowDetails, RowDetailsToggle } from '../../../shared/components/row-details';
import type { AuditEntry } from '../api/audit-types';
import { dataPreview, formatEntryTime, formatShortEntryTime, subjectPath } from '../utils/audit-format';

export const AUDIT_COLUMN_COUNT = 7;
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

export function AuditEntryRow({ entry, onFilterSubject }: { entry: AuditEntry; onFilterSubject: (subject: string) => void }) {
  const [open, setOpen] = useState(false);
  const path = subjectPath(entry.subject);
  const detailsId = `audit-entry-${entry.seq}`;
  const preview = dataPreview(entry.data);

  return (
    <>
      <TableRow hover sx={{ '& > td': { borderBottom: open ? 0 : undefined }, verticalAlign: 'top' }}>
        <TableCell padding="checkbox">
          <RowDetailsToggle open={open} what={`data of entry ${entry.chainSeq}`} detailsId={detailsId} onToggle={() => setOpen(!open)} />
        </TableCell>
        <TableCell sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600, whiteSpace: 'nowrap' }}>{entry.chainSeq}</TableCell>
        <TableCell sx={{ fontFamily: MONO, fontSize: 13, whiteSpace: 'nowrap' }}>{entry.action}</TableCell>
        <TableCell sx={{ minWidth: 250, maxWidth: 320 }}>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
            <Box sx={{ fontFamily: MONO, fontSize: 12, overflowWrap: 'anywhere', minWidth: 0, pt: 0.5 }}>
              {path ? (
                <Link component={RouterLink} to={path}>
                  {entry.subject}
                </Link>
              ) : (
                entry.subject
              )}
            </Box>
            <Tooltip title="Only this subject’s entries">
              <IconButton size="small" aria-label={`Show only entries of ${entry.subject}`} onClick={() => onFilterSubject(entry.subject)}>
                <FilterAltOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <time dateTime={entry.at} title={formatEntryTime(entry.at)}>
            {formatShortEntryTime(entry.at)}
          </time>
        </TableCell>
        <TableCell sx={{ fontFamily: MONO, fontSize: 12, overflowWrap: 'anywhere', minWidth: 160, maxWidth: 240 }}>{entry.actor}</TableCell>
        <TableCell sx={{ fontFamily: MONO, fontSize: 12, color: 'text.secondary', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 260 }}>
          {preview || '—'}
        </TableCell>
      </TableRow>
      <RowDetails open={open} detailsId={detailsId} colSpan={AUDIT_COLUMN_COUNT}>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
          Data
        </Typography>
        <Box
          component="pre"
          tabIndex={0}
          role="region"
          aria-label={`Data of entry ${entry.chainSeq}`}
          sx={{ m: 0, p: 1.5, maxHeight: 320, overflow: 'auto', borderRadius: 1, bgcolor: 'action.hover', fontFamily: MONO, fontSize: 12 }}
        >
          {JSON.stringify(entry.data, null, 2)}
        </Box>
        <Box component="dl" sx={{ mt: 1.5, mb: 0, display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 2, rowGap: 0.5, fontSize: 13 }}>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            Hash
          </Box>
          <Box component="dd" sx={{ m: 0, fontFamily: MONO, overflowWrap: 'anywhere' }}>
            {entry.hash}
          </Box>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            Previous hash
          </Box>
          <Box component="dd" sx={{ m: 0, fontFamily: MONO, overflowWrap: 'anywhere' }}>
            {entry.prevHash}
          </Box>
        </Box>
      </RowDetails>
    </>
  );
}
