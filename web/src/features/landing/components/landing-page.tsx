// Route '/': the public landing page, its eleven parts in the spec's order.
import { Box } from '@mui/material';
import { PageHead, SITE_NAME } from '../../../shared/components/page-head';
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
      <PageHead
        title={`${SITE_NAME} · Payments and identity wallets for AI agents`}
        description="Give every AI agent a wallet, a verifiable identity and spending rules, and let it pay for APIs, data and compute over open standards: x402, MCP and REST."
      />
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
