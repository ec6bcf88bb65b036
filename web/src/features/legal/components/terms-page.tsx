// Route '/terms': docs-content/legal/terms.md.
import { LegalPage } from './legal-page';

export function TermsPage() {
  return <LegalPage id="terms" />;
}
