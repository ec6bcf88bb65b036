// Route '/privacy': docs-content/legal/privacy.md.
import { LegalPage } from './legal-page';

export function PrivacyPage() {
  return <LegalPage id="privacy" />;
}
