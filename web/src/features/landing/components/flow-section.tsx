import { List, ListItem, ListItemIcon, ListItemText, Avatar } from '@mui/material';
import { LandingSection } from './landing-section';

const steps = [
  { title: 'Payment Intent', text: 'The agent states what it wants to pay, to whom and why.' },
  { title: 'Policy and KYA Gate', text: 'Spending rules and the agent’s identity tier decide whether it may.' },
  { title: 'Rail Orchestrator', text: 'The best rail is chosen: card, bank transfer or stablecoin.' },
  { title: 'Execute and Settle', text: 'Funds are held, moved and settled; failures release the hold.' },
  { title: 'Audit and Telemetry', text: 'Every step lands in an append-only audit log.' },
];

export function FlowSection() {
  return (
    <LandingSection id="flow" title="How an Agent Pays" lead="Five steps from intent to settlement.">
      <List component="ol" sx={{ mt: 2 }}>
        {steps.map((step, index) => (
          <ListItem key={step.title} disableGutters>
            <ListItemIcon>
              <Avatar sx={{ width: 32, height: 32, bgcolor: 'primary.main', fontSize: 16 }}>{index + 1}</Avatar>
            </ListItemIcon>
            <ListItemText primary={step.title} secondary={step.text} />
          </ListItem>
        ))}
      </List>
    </LandingSection>
  );
}
