// The time windows of a policy: payments pass only inside one of them. Each window has days of
// the week, a start and an end (UTC, end excluded; an end before the start crosses midnight).
import AddRounded from '@mui/icons-material/AddRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import { Box, Button, FormHelperText, IconButton, Stack, TextField, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from '@mui/material';
import { DAY_FULL_NAMES, DAY_NAMES } from '../utils/rule-format';
import { DAYS_OF_WEEK, newTimeWindow, type DayOfWeek, type PolicyFormErrors, type TimeWindowForm } from '../utils/policy-form';

export interface TimeWindowsFieldProps {
  windows: TimeWindowForm[];
  errors: PolicyFormErrors;
  disabled: boolean;
  onChange: (windows: TimeWindowForm[]) => void;
}

export function TimeWindowsField({ windows, errors, disabled, onChange }: TimeWindowsFieldProps) {
  const change = (index: number, patch: Partial<TimeWindowForm>) => onChange(windows.map((window, at) => (at === index ? { ...window, ...patch } : window)));
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Payments pass only inside one of these windows (UTC). Times are HH:MM, the end excluded; use 24:00 for the end of the day. A window whose end is
        before its start runs past midnight. No window: any time.
      </Typography>
      <Stack spacing={2}>
        {windows.map((window, index) => {
          const error = errors[`timeWindows.${index}`];
          const number = index + 1;
          return (
            <Box
              key={window.key}
              role="group"
              aria-label={`Time window ${number}`}
              sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, p: 1.5 }}
            >
              <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
                <Typography variant="subtitle2" component="h4">
                  Window {number}
                </Typography>
                <Tooltip title="Remove window">
                  <IconButton size="small" aria-label={`Remove time window ${number}`} disabled={disabled} onClick={() => onChange(windows.filter((_, at) => at !== index))}>
                    <DeleteOutlineRounded fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
              <ToggleButtonGroup
                value={window.days}
                onChange={(_, days: DayOfWeek[]) => change(index, { days })}
                size="small"
                disabled={disabled}
                aria-label={`Days of time window ${number}`}
                sx={{ flexWrap: 'wrap', mb: 1.5 }}
              >
                {DAYS_OF_WEEK.map((day) => (
                  <ToggleButton key={day} value={day} aria-label={DAY_FULL_NAMES[day]} sx={{ px: 1.25, minWidth: 40 }}>
                    {DAY_NAMES[day]}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
              <Stack direction="row" spacing={1.5}>
                <TimeField
                  id={`policy-timeWindows-${index}-start`}
                  label="Start"
                  value={window.start}
                  placeholder="09:00"
                  disabled={disabled}
                  onChange={(start) => change(index, { start })}
                />
                <TimeField
                  id={`policy-timeWindows-${index}-end`}
                  label="End"
                  value={window.end}
                  placeholder="17:00"
                  disabled={disabled}
                  onChange={(end) => change(index, { end })}
                />
              </Stack>
              {error ? <FormHelperText error>{error}</FormHelperText> : null}
            </Box>
          );
        })}
      </Stack>
      {errors.timeWindows ? <FormHelperText error>{errors.timeWindows}</FormHelperText> : null}
      <Button startIcon={<AddRounded />} onClick={() => onChange([...windows, newTimeWindow()])} disabled={disabled} sx={{ mt: 1 }}>
        Add time window
      </Button>
    </Box>
  );
}

interface TimeFieldProps {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  disabled: boolean;
  onChange: (value: string) => void;
}

/** A window's start or end, HH:MM. */
function TimeField({ id, label, value, placeholder, disabled, onChange }: TimeFieldProps) {
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      placeholder={placeholder}
      size="small"
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
      sx={{ flex: 1 }}
    />
  );
}
