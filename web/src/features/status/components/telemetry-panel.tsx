// The status page's telemetry: the live health checks with their latencies (and how often the
// supervisor restarted an embedded child), the webhook backlog, then the spec's sample figures,
// which are not measured and are labelled as such.
import { Box, Card, CardContent, Chip, Divider, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { HEALTH_REFRESH_MS } from '../hooks/use-health';
import {
  CHECK_LABELS,
  checkLabel,
  formatAge,
  SLOW_CHECK_MS,
  type Check,
  type CheckName,
  type HealthChecks,
  type WebhookBacklog,
} from '../utils/service-status';
import { StateIndicator } from './state-indicator';

const CHECKS: readonly CheckName[] = ['database', 'temporal', 'worker'];

/** Spec section 9 (status page, illustrative). Shown only under an 'Illustrative' label. */
const ILLUSTRATIVE_FIGURES: readonly { label: string; value: string }[] = [
  { label: 'Requests, last 24 hours', value: '1.2M' },
  { label: 'Success rate', value: '99.98%' },
  { label: 'Next incident review', value: 'in 5 minutes' },
  { label: 'Solana Rail maintenance', value: '22:00-22:20 UTC' },
];

export function TelemetryPanel({ report, failed }: { report: HealthChecks | undefined; failed: boolean }) {
  return (
    <Card variant="outlined" component="section" aria-labelledby="telemetry-title">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="telemetry-title" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
          Telemetry
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          Live health checks, every {HEALTH_REFRESH_MS / 1000} seconds.
        </Typography>
        <Box component="dl" sx={{ m: 0 }}>
          {checkNames(report, failed).map((name) => {
            const check = failed ? undefined : report?.checks[name];
            return (
              <Row key={name} term={CHECK_LABELS[name]}>
                {check ? <CheckValue name={name} check={check} /> : <NoAnswer failed={failed} />}
              </Row>
            );
          })}
          <BacklogRow report={report} failed={failed} />
        </Box>
        <Divider sx={{ my: 2 }} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
            Sample figures
          </Typography>
          <Chip label="Illustrative" size="small" variant="outlined" />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 1 }}>
          Examples of what this panel will report; not measured from the platform.
        </Typography>
        <Box component="dl" sx={{ m: 0 }}>
          {ILLUSTRATIVE_FIGURES.map((figure) => (
            <Row key={figure.label} term={figure.label}>
              <Box component="span" sx={{ fontWeight: 600, color: 'text.secondary' }}>
                {figure.value}
              </Box>
            </Row>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

/** The sandbox chain has a row only when the report checks it: a real network is not checked. */
function checkNames(report: HealthChecks | undefined, failed: boolean): readonly CheckName[] {
  return !failed && report?.checks.chain ? [...CHECKS, 'chain'] : CHECKS;
}

function CheckValue({ name, check }: { name: CheckName; check: Check }) {
  return (
    <>
      {check.restarts ? (
        <Box component="span" sx={{ color: 'text.secondary' }} data-testid={`restarts-${name}`}>
          restarted {check.restarts}×
        </Box>
      ) : null}
      <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 700 }} data-testid={`latency-${name}`}>
        {check.latencyMs} ms
      </Box>
      <StateIndicator state={check.status === 'down' ? 'outage' : check.latencyMs > SLOW_CHECK_MS ? 'degraded' : 'operational'} label={checkLabel(check)} />
    </>
  );
}

function NoAnswer({ failed }: { failed: boolean }) {
  return <StateIndicator state="unknown" label={failed ? 'No answer' : 'Checking…'} />;
}

/**
 * Webhook deliveries waiting for their receivers. Informational: a receiver's outage is not
 * ours, so a backlog gets no state colour, and a failed count reads as unknown, not as an outage.
 */
function BacklogRow({ report, failed }: { report: HealthChecks | undefined; failed: boolean }) {
  const backlog = failed ? undefined : report?.checks.webhooks;
  if (report && !failed && !backlog) return null;
  return (
    <Row term="Webhook backlog">
      {backlog ? (
        backlog.status === 'up' ? (
          <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 700 }} data-testid="webhook-backlog">
            {describeBacklog(backlog)}
          </Box>
        ) : (
          <StateIndicator state="unknown" label={checkLabel(backlog)} />
        )
      ) : (
        <NoAnswer failed={failed} />
      )}
    </Row>
  );
}

/** '12 waiting, oldest 3 min'; '0 waiting' when none does (the oldest age is then null). */
function describeBacklog({ pending = 0, oldestPendingSeconds }: WebhookBacklog): string {
  return oldestPendingSeconds == null ? `${pending} waiting` : `${pending} waiting, oldest ${formatAge(oldestPendingSeconds)}`;
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', columnGap: 2, rowGap: 0.5, py: 0.75 }}>
      <Typography component="dt" variant="body2">
        {term}
      </Typography>
      <Box
        component="dd"
        sx={{ m: 0, ml: 'auto', display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', columnGap: 1.5, rowGap: 0.5, typography: 'body2', textAlign: 'right' }}
      >
        {children}
      </Box>
    </Box>
  );
}
