// Route '/': the public landing page.
import { Box } from '@mui/material';
import { FlowSection } from './flow-section';
import { HeroSection } from './hero-section';
import { LandingFooter } from './landing-footer';
import { LandingNav } from './landing-nav';
import { StartBuildingSection } from './start-building-section';

export function LandingPage() {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <LandingNav />
      <Box component="main">
        <HeroSection />
        <FlowSection />
        <StartBuildingSection />
      </Box>
      <LandingFooter />
    </Box>
  );
}
