// The status page's incident log (docs-content/status/incidents.yaml): illustrative entries,
// newest first, labelled as examples of how incidents are reported.
import { parseTextDate, type IncidentLog } from '@purser/docs-content/browser';
import { Box, Card, CardContent, Chip, Typography } from '@mui/material';
import { StateIndicator } from './state-indicator';

export function IncidentLogSection({ log }: { log: IncidentLog }) {
  return (
    <Box component="section" aria-labelledby="incident-log-title">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Typography id="incident-log-title" variant="h5" component="h2" sx={{ fontWeight: 800 }}>
          Incident log
        </Typography>
        <Chip label="Illustrative" size="small" variant="outlined" />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
        {log.note}
      </Typography>
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}>
        {log.incidents.map((incident) => (
          <li key={`${incident.date}-${incident.title}`}>
            <Card variant="outlined">
              <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
                  <Box sx={{ minWidth: 0, flex: '1 1 260px' }}>
                    <Typography variant="body2" color="text.secondary">
                      <time dateTime={parseTextDate(incident.date)?.toISOString().slice(0, 10)}>{incident.date}</time>
                    </Typography>
                    <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, lineHeight: 1.35 }}>
                      {incident.title}
                    </Typography>
                  </Box>
                  <StateIndicator state={incident.status === 'Resolved' ? 'operational' : 'degraded'} label={incident.status} />
                </Box>
                <Box component="dl" sx={{ m: 0, mt: 1.5, display: 'grid', gap: 1, typography: 'body2' }}>
                  <div>
                    <Box component="dt" sx={{ fontWeight: 700, display: 'inline' }}>
                      Impact:{' '}
                    </Box>
                    <Box component="dd" sx={{ m: 0, display: 'inline', color: 'text.secondary' }}>
                      {incident.impact}
                    </Box>
                  </div>
                  <div>
                    <Box component="dt" sx={{ fontWeight: 700, display: 'inline' }}>
                      Resolution:{' '}
                    </Box>
                    <Box component="dd" sx={{ m: 0, display: 'inline', color: 'text.secondary' }}>
                      {incident.resolution}
                    </Box>
                  </div>
                </Box>
              </CardContent>
            </Card>
          </li>
        ))}
      </Box>
    </Box>
  );
}
