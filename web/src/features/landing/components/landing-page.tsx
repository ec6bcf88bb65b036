// Route '/': the public landing page, its eleven parts in the spec's order.
import { Box } from '@mui/material';
import { FaqSection } from './faq-section';
import { FlowSection } from './flow-section';
import { HeroSection } from './hero-section';
import { IntegrationSection } from './integration-section';
import { LandingFooter } from './landing-footer';
import { LandingNav } from './landing-nav';
import { PillarsSection } from './pillars-section';
import { ProtocolNavigatorSection } from './protocol-navigator-section';
import { SecuritySection } from './security-section';
import { StartBuildingSection } from './start-building-section';
import { UseCasesSection } from './use-cases-section';
import { WallsSection } from './walls-section';

export function LandingPage() {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <LandingNav />
      <Box component="main">
        <HeroSection />
        <ProtocolNavigatorSection />
        <WallsSection />
        <PillarsSection />
        <FlowSection />
        <IntegrationSection />
        <SecuritySection />
        <UseCasesSection />
        <StartBuildingSection />
        <FaqSection />
      </Box>
      <LandingFooter />
    </Box>
  );
}
