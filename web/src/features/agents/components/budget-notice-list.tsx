// Budget notices as alerts: 80% of a limit warns, 100% (the limit is reached) is an error.
// "Spent 80% of the daily limit ($8.00 of $10.00) on Nov 26".
import { Alert, Button, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { budgetNoticeText, noticeSeverity, type BudgetAlert } from '../utils/budget-notice';
import { formatDateTime } from '../utils/money';

export function BudgetNoticeList({ alerts, withAgent = false }: { alerts: readonly BudgetAlert[]; withAgent?: boolean }) {
  const currentYear = new Date().getUTCFullYear();
  return (
    <Stack spacing={1} component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {alerts.map((alert) => (
        <li key={alert.id}>
          <Alert
            severity={noticeSeverity(alert)}
            title={`Raised ${formatDateTime(alert.createdAt)}`}
            action={
              withAgent ? (
                <Button component={RouterLink} to={`/dashboard/agents/${alert.agentId}`} color="inherit" size="small" aria-label={`Open ${alert.agentName}`}>
                  Open agent
                </Button>
              ) : undefined
            }
          >
            {budgetNoticeText(alert, { withAgent, currentYear })}
          </Alert>
        </li>
      ))}
    </Stack>
  );
}
