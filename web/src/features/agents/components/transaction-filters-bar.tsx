// The transactions page's filter bar: four selects with an 'All' option, a search and a reset.
import RestartAltRounded from '@mui/icons-material/RestartAltRounded';
import SearchRounded from '@mui/icons-material/SearchRounded';
import { Box, Button, InputAdornment, MenuItem, TextField } from '@mui/material';
import { ALL, DEFAULT_FILTERS, distinctValues, formatTransactionType, type FilterableTransaction, type TransactionFilters } from '../utils/transaction-filters';

const CURRENCIES = ['USDC', 'USDT'];
const STATUSES = ['pending', 'completed', 'failed'];
const SEARCH_PLACEHOLDER = 'Search description, address or metadata';

interface Props {
  transactions: readonly FilterableTransaction[];
  filters: TransactionFilters;
  onChange: (filters: TransactionFilters) => void;
}

export function TransactionFiltersBar({ transactions, filters, onChange }: Props) {
  const set = (field: keyof TransactionFilters) => (value: string) => onChange({ ...filters, [field]: value });

  return (
    <Box
      role="search"
      aria-label="Filter transactions"
      sx={{ display: 'grid', gap: 2, alignItems: 'center', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' } }}
    >
      <FilterSelect id="filter-type" label="Type" value={filters.type} options={distinctValues(transactions, 'type')} format={formatTransactionType} onChange={set('type')} />
      <FilterSelect id="filter-currency" label="Currency" value={filters.currency} options={CURRENCIES} onChange={set('currency')} />
      <FilterSelect id="filter-status" label="Status" value={filters.status} options={STATUSES} onChange={set('status')} />
      <FilterSelect id="filter-category" label="Category" value={filters.category} options={distinctValues(transactions, 'category')} onChange={set('category')} />
      <TextField
        size="small"
        label="Search"
        placeholder={SEARCH_PLACEHOLDER}
        value={filters.search}
        onChange={(event) => set('search')(event.target.value)}
        // A one-line field cuts the placeholder off on phones (it needs about 300 px of text);
        // a textarea that grows with it wraps it instead. Enter never adds a line: the
        // search is one line of text, applied as it is typed.
        multiline
        minRows={1}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.preventDefault();
        }}
        sx={{ gridColumn: { xs: '1 / -1', md: 'span 3' } }}
        slotProps={{
          // The placeholder says what is searched: show it before the field is focused too.
          inputLabel: { shrink: true },
          htmlInput: { enterKeyHint: 'search' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchRounded fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <Button variant="outlined" startIcon={<RestartAltRounded />} onClick={() => onChange(DEFAULT_FILTERS)} sx={{ gridColumn: { xs: '1 / -1', md: 'auto' }, whiteSpace: 'nowrap' }}>
        Reset Filters
      </Button>
    </Box>
  );
}

interface FilterSelectProps {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  format?: (value: string) => string;
  onChange: (value: string) => void;
}

function FilterSelect({ id, label, value, options, format = (option) => option, onChange }: FilterSelectProps) {
  // A value chosen before the data changed stays selectable rather than showing blank.
  const shown = value === ALL || options.includes(value) ? options : [...options, value];
  return (
    <TextField select size="small" id={id} label={label} value={value} onChange={(event) => onChange(event.target.value)}>
      <MenuItem value={ALL}>All</MenuItem>
      {shown.map((option) => (
        <MenuItem key={option} value={option}>
          {format(option)}
        </MenuItem>
      ))}
    </TextField>
  );
}
