// Route '/status': service health. The labels are static, as on the reference product.
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import { Alert, Card, CardContent, Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { PublicPageLayout } from '../../../shared/components/public-page-layout';

const serviceGroups = [
  { name: 'Core Platform', services: ['Intent & Policy API', 'Webhook Delivery', 'Realtime Telemetry'] },
  { name: 'Agent Orchestration', services: ['Wallet Provisioning', 'Base / EVM Rail', 'Solana Rail'] },
];

export function StatusPage() {
  return (
    <PublicPageLayout title="System status" actions={<BackToHomeLink />}>
      <Stack spacing={3}>
        <Alert icon={<CheckCircleRounded />} severity="success">
          All systems operational
        </Alert>
        {serviceGroups.map((group) => (
          <Card key={group.name} variant="outlined" component="section" aria-label={group.name}>
            <CardContent>
              <Typography variant="h6" component="h2">
                {group.name}
              </Typography>
              <List dense>
                {group.services.map((service) => (
                  <ListItem key={service} disableGutters secondaryAction={<Chip size="small" color="success" label="Operational" />}>
                    <ListItemText primary={service} />
                  </ListItem>
                ))}
              </List>
            </CardContent>
          </Card>
        ))}
      </Stack>
    </PublicPageLayout>
  );
}
