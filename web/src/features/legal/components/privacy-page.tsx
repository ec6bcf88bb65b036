// Route '/privacy'.
import { LegalPage } from './legal-page';

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      summary="How Purser collects, uses and protects personal data."
      points={[
        'Operational logs are kept for 13 months.',
        'Privacy requests are answered within 30 days.',
      ]}
    />
  );
}
