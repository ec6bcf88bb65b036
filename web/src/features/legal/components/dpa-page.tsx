// Route '/dpa': docs-content/legal/dpa.md.
import { LegalPage } from './legal-page';

export function DpaPage() {
  return <LegalPage id="dpa" />;
}
