// The audit page's filters: exact action, subject (a trailing * matches every subject it
// starts), and a date range of whole days. Applied together, with Enter or the button.
import { Box, Button, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { dateRangeError, EMPTY_FILTERS, filtersKey, hasFilters, type AuditFilters } from '../utils/audit-filters';

interface AuditFiltersBarProps {
  /** The filters in effect (the address's). */
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}

export function AuditFiltersBar({ filters, onApply }: AuditFiltersBarProps) {
  const [draft, setDraft] = useState(filters);
  const current = filtersKey(filters);
  const [shown, setShown] = useState(current);
  // What this bar applied last: when the address catches up with it, the fields (which may
  // hold newer typing by then) stay as they are.
  const [applied, setApplied] = useState(current);
  if (shown !== current) {
    // The filters changed: from here, or from elsewhere (a subject's filter button, Back),
    // in which case the fields show them.
    setShown(current);
    if (current !== applied) setDraft(filters);
  }
  const rangeError = dateRangeError(draft);
  const set = (key: keyof AuditFilters) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value });
  const apply = (next: AuditFilters) => {
    setApplied(filtersKey(next));
    onApply(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!rangeError) apply(draft);
  };

  return (
    <Box component="form" role="search" aria-label="Filter audit entries" onSubmit={submit} noValidate>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'minmax(0, 1fr) minmax(0, 1.4fr) 170px 170px' } }}>
        <TextField size="small" label="Action" placeholder="e.g. agent.suspended" value={draft.action} onChange={set('action')} />
        <TextField size="small" label="Subject" placeholder="e.g. payment_intent:* or agent:<id>" value={draft.subject} onChange={set('subject')} />
        <TextField size="small" label="From" type="date" value={draft.from} onChange={set('from')} slotProps={{ inputLabel: { shrink: true } }} />
        <TextField
          size="small"
          label="To"
          type="date"
          value={draft.to}
          onChange={set('to')}
          error={Boolean(rangeError)}
          helperText={rangeError ?? undefined}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
        <Button type="submit" variant="contained" size="small" disabled={Boolean(rangeError)}>
          Apply filters
        </Button>
        <Button
          size="small"
          onClick={() => {
            setDraft(EMPTY_FILTERS);
            apply(EMPTY_FILTERS);
          }}
          disabled={!hasFilters(filters) && !hasFilters(draft)}
        >
          Clear
        </Button>
      </Stack>
    </Box>
  );
}
