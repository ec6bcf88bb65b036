// The dashboard's shape while its first reads are under way.
import { Card, CardContent, Grid, Skeleton } from '@mui/material';

export function DashboardSkeleton() {
  return (
    <Grid container spacing={3} data-testid="dashboard-skeleton" aria-busy="true" aria-label="Loading dashboard" role="status">
      {[0, 1].map((index) => (
        <Grid key={index} size={{ xs: 12, md: 6 }}>
          <SkeletonCard lines={3} />
        </Grid>
      ))}
      <Grid size={12}>
        <SkeletonCard lines={4} />
      </Grid>
      <Grid size={12}>
        <SkeletonCard lines={5} />
      </Grid>
    </Grid>
  );
}

function SkeletonCard({ lines }: { lines: number }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Skeleton variant="text" width="40%" sx={{ fontSize: '1.5rem', mb: 1 }} />
        {Array.from({ length: lines }, (_, index) => (
          <Skeleton key={index} variant="text" width={`${90 - index * 10}%`} />
        ))}
      </CardContent>
    </Card>
  );
}
