import { LandingSection } from './landing-section';

export function StartBuildingSection() {
  return (
    <LandingSection
      id="start-building"
      title="Start building today"
      lead="Access is invite-only. Book an intro call with the team to receive sandbox credentials and an invitation code."
    />
  );
}
