// An outlined card with a titled section: the dashboard's and the agent pages' cards.
import { Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export function SectionCard({ title, fill = false, children }: { title: string; fill?: boolean; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={fill ? { height: '100%' } : undefined}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
