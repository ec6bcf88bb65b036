// Route '/status': the platform's live health (tRPC `health.get`, every 30 seconds), mapped to
// the spec's services, with the telemetry panel, the illustrative incident log and support.
import { CONTACT_EMAILS } from '@purser/docs-content/browser';
import { Box, Link, Stack, Typography } from '@mui/material';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';
import { incidentLog } from '../data/incident-log';
import { useHealth } from '../hooks/use-health';
import { overallState, serviceStatuses } from '../utils/service-status';
import { IncidentLogSection } from './incident-log-section';
import { OverallStatusBanner } from './overall-status-banner';
import { ServiceGroupCard } from './service-group-card';
import { SubscribeButton } from './subscribe-dialog';
import { TelemetryPanel } from './telemetry-panel';

const TITLE = 'System status';
const SUBTITLE = 'Live health of the Purser platform, checked from this page.';

export function StatusPage() {
  const health = useHealth();
  // A report from before a failed refresh is stale: show nothing rather than old good news.
  const report = health.isError ? undefined : health.data;
  const failed = health.isError;

  return (
    <PublicPageLayout
      title={TITLE}
      description={SUBTITLE}
      actions={<BackToHomeLink />}
      maxWidth="lg"
      hero={
        <Box component="header" sx={{ mb: 3, display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between', gap: 2 }}>
          <Box sx={{ minWidth: 0, flex: '1 1 320px' }}>
            <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '2.1rem', sm: '3rem' } }}>
              {TITLE}
            </Typography>
            <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 1, fontWeight: 400 }}>
              {SUBTITLE}
            </Typography>
          </Box>
          <SubscribeButton />
        </Box>
      }
    >
      <Stack spacing={{ xs: 3, md: 4 }}>
        <OverallStatusBanner
          state={overallState(report, { failed })}
          checkedAt={failed ? undefined : health.dataUpdatedAt}
          refreshing={health.isFetching}
          onRefresh={() => void health.refetch()}
        />
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' }, alignItems: 'start' }}>
          <Stack spacing={3}>
            {serviceStatuses(report).map((group) => (
              <ServiceGroupCard key={group.name} name={group.name} services={group.services} />
            ))}
          </Stack>
          <TelemetryPanel report={report} failed={failed} />
        </Box>
        <IncidentLogSection log={incidentLog} />
        <Typography component="p" color="text.secondary">
          Need help? Contact support at <Link href={`mailto:${CONTACT_EMAILS.support}`}>{CONTACT_EMAILS.support}</Link>.
        </Typography>
      </Stack>
    </PublicPageLayout>
  );
}
