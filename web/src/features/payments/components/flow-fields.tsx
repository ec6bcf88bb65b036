// Small building blocks of the payment page: a list of labelled values (a <dl>), a
// monospaced value that wraps anywhere, and an external link that says it opens a new tab.
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import { Box, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';

export interface FieldRow {
  label: string;
  value: ReactNode;
}

/** Label and value side by side on wide screens, stacked on narrow ones; empty values read '—'. */
export function FieldList({ rows, dense = false }: { rows: readonly FieldRow[]; dense?: boolean }) {
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: dense ? { xs: '1fr', sm: 'minmax(96px, max-content) 1fr' } : { xs: '1fr', sm: 'minmax(140px, max-content) 1fr' },
        columnGap: 2,
        rowGap: { xs: 0.25, sm: dense ? 0.75 : 1 },
      }}
    >
      {rows.map((row) => (
        <Box key={row.label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 0.75, sm: 0 } }}>
            {row.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
            {row.value === null || row.value === undefined || row.value === '' ? '—' : row.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export function Mono({ children }: { children: ReactNode }) {
  return (
    <Box component="span" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.8125rem', overflowWrap: 'anywhere' }}>
      {children}
    </Box>
  );
}

export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, overflowWrap: 'anywhere' }}>
      {children}
      <OpenInNewRounded sx={{ fontSize: 16 }} aria-hidden />
      <Box component="span" sx={visuallyHidden}>
        (opens in a new tab)
      </Box>
    </Link>
  );
}
