// The payments page's filters: search (purpose, merchant, metadata), statuses, rail, a paid
// call's protocol (x402 or MPP), agent, a date range and an amount range, and Reset. Each change goes straight to the URL (typed
// fields once typing pauses), which is where the page reads them from. On phones only the
// search shows; a Filters button (with how many are set) folds the rest out.
import RestartAltRounded from '@mui/icons-material/RestartAltRounded';
import SearchRounded from '@mui/icons-material/SearchRounded';
import TuneRounded from '@mui/icons-material/TuneRounded';
import { Badge, Box, Button, Checkbox, Collapse, IconButton, InputAdornment, ListItemText, MenuItem, Stack, TextField, Tooltip, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { useId, useState } from 'react';
import type { IntentStatus, PaymentAgent, RailName } from '../api/payment-types';
import {
  INTENT_STATUSES,
  PAYMENT_PROTOCOLS,
  PROTOCOL_LABELS,
  RAIL_LABELS,
  RAIL_NAMES,
  SANDBOX_RAILS,
  STATUS_LABELS,
  isIntentStatus,
  isPaymentProtocol,
  isRailName,
} from '../utils/intent-labels';
import { SEARCH_MAX_LENGTH, filterProblems, hasActiveFilters, isAmountText, type PaymentFilters } from '../utils/payment-filters';
import { DebouncedTextField } from './debounced-text-field';

const ALL = '';

interface Props {
  filters: PaymentFilters;
  agents: readonly PaymentAgent[];
  onChange: (changes: Partial<PaymentFilters>) => void;
  onReset: () => void;
}

export function PaymentFiltersBar({ filters, agents, onChange, onReset }: Props) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const set = narrowingCount(filters);
  // Folded out from the start when a link arrives with filters set, so they are seen.
  const [expanded, setExpanded] = useState(set > 0);
  const moreId = useId();
  const problems = filterProblems(filters);
  const amountProblem = (text: string) => (isAmountText(text) ? null : 'Dollars, e.g. 12.50');
  const grid = {
    display: 'grid',
    gap: 1.5,
    alignItems: 'start',
    // Wide: search, statuses, rail, protocol and agent on the first row; dates, amounts and Reset on the second.
    gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))', lg: 'repeat(9, minmax(0, 1fr))' },
  } as const;

  const search = (
    <DebouncedTextField
      size="small"
      type="search"
      label="Search"
      placeholder="Purpose, merchant, metadata"
      value={filters.search}
      onCommit={(search) => onChange({ search })}
      sx={{ gridColumn: { md: 'span 2', lg: 'span 3' }, flexGrow: 1, minWidth: 0 }}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { maxLength: SEARCH_MAX_LENGTH, enterKeyHint: 'search' },
        // On phones the icon would cost the placeholder its last word.
        input: phone
          ? undefined
          : {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchRounded fontSize="small" />
                </InputAdornment>
              ),
            },
      }}
    />
  );

  const more = (
    <>
      <TextField
        select
        size="small"
        id="payments-filter-status"
        label="Status"
        value={filters.statuses}
        onChange={(event) => {
          const value = event.target.value as unknown as string[] | string;
          const chosen = (typeof value === 'string' ? value.split(',') : value).filter(isIntentStatus);
          onChange({ statuses: INTENT_STATUSES.filter((status) => chosen.includes(status)) });
        }}
        slotProps={{
          inputLabel: { shrink: true },
          select: {
            multiple: true,
            displayEmpty: true,
            renderValue: (selected) => statusSummary(selected as IntentStatus[]),
          },
        }}
        sx={{ gridColumn: { xs: '1 / -1', md: 'auto', lg: 'span 2' } }}
      >
        {INTENT_STATUSES.map((status) => (
          <MenuItem key={status} value={status} dense>
            <Checkbox size="small" checked={filters.statuses.includes(status)} sx={{ p: 0.5, mr: 1 }} slotProps={{ input: { 'aria-hidden': true, tabIndex: -1 } }} />
            <ListItemText primary={STATUS_LABELS[status]} />
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        id="payments-filter-rail"
        label="Rail"
        value={filters.rail ?? ALL}
        onChange={(event) => onChange({ rail: isRailName(event.target.value) ? event.target.value : null })}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      >
        <MenuItem value={ALL}>All</MenuItem>
        {RAIL_NAMES.map((rail) => (
          <MenuItem key={rail} value={rail}>
            {railOptionLabel(rail)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        id="payments-filter-protocol"
        label="Protocol"
        value={filters.protocol ?? ALL}
        onChange={(event) => onChange({ protocol: isPaymentProtocol(event.target.value) ? event.target.value : null })}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      >
        <MenuItem value={ALL}>All</MenuItem>
        {PAYMENT_PROTOCOLS.map((protocol) => (
          <MenuItem key={protocol} value={protocol}>
            {PROTOCOL_LABELS[protocol]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        id="payments-filter-agent"
        label="Agent"
        value={filters.agentId ?? ALL}
        onChange={(event) => onChange({ agentId: event.target.value || null })}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        sx={{ gridColumn: { xs: '1 / -1', md: 'auto', lg: 'span 2' } }}
      >
        <MenuItem value={ALL}>All</MenuItem>
        {agentOptions(agents, filters.agentId).map((agent) => (
          <MenuItem key={agent.id} value={agent.id}>
            {agent.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        type="date"
        label="From"
        value={filters.from}
        onChange={(event) => onChange({ from: event.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: filters.to || undefined } }}
        sx={{ gridColumn: { lg: 'span 2' } }}
      />
      <TextField
        size="small"
        type="date"
        label="To"
        value={filters.to}
        onChange={(event) => onChange({ to: event.target.value })}
        error={Boolean(problems.to)}
        helperText={problems.to}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: filters.from || undefined } }}
        sx={{ gridColumn: { lg: 'span 2' } }}
      />
      <DebouncedTextField
        size="small"
        label="Min amount"
        placeholder="0.00"
        value={filters.minAmount}
        validate={amountProblem}
        onCommit={(minAmount) => onChange({ minAmount })}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { inputMode: 'decimal' },
          input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
        }}
      />
      <DebouncedTextField
        size="small"
        label="Max amount"
        placeholder="Any"
        value={filters.maxAmount}
        validate={amountProblem}
        error={Boolean(problems.maxAmount)}
        helperText={problems.maxAmount}
        onCommit={(maxAmount) => onChange({ maxAmount })}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { inputMode: 'decimal' },
          input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
        }}
      />
      <Button
        variant="outlined"
        startIcon={<RestartAltRounded />}
        onClick={onReset}
        disabled={!hasActiveFilters(filters)}
        sx={{ gridColumn: { xs: '1 / -1', md: 'auto', lg: 'span 2' }, justifySelf: { lg: 'start' }, whiteSpace: 'nowrap', height: 40 }}
      >
        Reset filters
      </Button>
    </>
  );

  if (!phone) {
    return (
      <Box role="search" aria-label="Filter payments" sx={grid}>
        {search}
        {more}
      </Box>
    );
  }
  return (
    <Box role="search" aria-label="Filter payments">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        {search}
        {/* An icon, so the search keeps the width to show its placeholder whole. */}
        <Tooltip title="Filters">
          <IconButton
            aria-label={set ? `Filters, ${set} set` : 'Filters'}
            aria-expanded={expanded}
            aria-controls={moreId}
            onClick={() => setExpanded((value) => !value)}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, width: 40, height: 40, flexShrink: 0 }}
          >
            <Badge badgeContent={set} color="primary" aria-hidden>
              <TuneRounded />
            </Badge>
          </IconButton>
        </Tooltip>
      </Stack>
      <Collapse in={expanded} id={moreId}>
        <Box sx={{ ...grid, pt: 1.5 }}>{more}</Box>
      </Collapse>
    </Box>
  );
}

/** How many filters besides the search narrow the list (for the phone's Filters button). */
function narrowingCount(filters: PaymentFilters): number {
  return [filters.statuses.length > 0, filters.rail, filters.protocol, filters.agentId, filters.from, filters.to, filters.minAmount, filters.maxAmount].filter(Boolean).length;
}

function statusSummary(selected: readonly IntentStatus[]): string {
  if (selected.length === 0) return 'All';
  if (selected.length <= 2) return selected.map((status) => STATUS_LABELS[status]).join(', ');
  return `${selected.length} statuses`;
}

function railOptionLabel(rail: RailName): string {
  return SANDBOX_RAILS.includes(rail) ? `${RAIL_LABELS[rail]} (sandbox)` : RAIL_LABELS[rail];
}

/** The owner's agents by name; an agent chosen by a link but not listed (deleted) stays choosable. */
function agentOptions(agents: readonly PaymentAgent[], chosen: string | null): { id: string; name: string }[] {
  const options = [...agents].sort((a, b) => a.name.localeCompare(b.name)).map(({ id, name }) => ({ id, name }));
  if (chosen && !options.some((agent) => agent.id === chosen)) options.push({ id: chosen, name: 'Unknown agent' });
  return options;
}
