// One group of services (Core Platform, Agent Orchestration) with each service's live state
// and what it depends on.
import { Box, Card, CardContent, Typography } from '@mui/material';
import { CHECK_LABELS, type ServiceStatus } from '../utils/service-status';
import { StateIndicator } from './state-indicator';

export function ServiceGroupCard({ name, services }: { name: string; services: readonly ServiceStatus[] }) {
  const headingId = `group-${name.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
        <Typography id={headingId} variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          {name}
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {services.map((service) => (
            <Box
              component="li"
              key={service.name}
              aria-label={service.name}
              sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', columnGap: 2, rowGap: 0.5, py: 1.5, borderTop: 1, borderColor: 'divider', '&:first-of-type': { borderTop: 0 } }}
            >
              <Box sx={{ minWidth: 0, flex: '1 1 220px' }}>
                <Typography sx={{ fontWeight: 600 }}>{service.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {describe(service)}
                </Typography>
              </Box>
              <StateIndicator state={service.state} />
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

function describe(service: ServiceStatus): string {
  const names = (list: readonly (keyof typeof CHECK_LABELS)[]) => list.map((name) => CHECK_LABELS[name]).join(', ');
  const needs = `Depends on: ${names(service.dependsOn)}.`;
  const problem =
    service.state === 'outage' ? ` Not answering: ${names(service.failing)}.` : service.state === 'degraded' ? ` Slow: ${names(service.failing)}.` : '';
  return `${needs}${problem}${service.note ? ` ${service.note}` : ''}`;
}
