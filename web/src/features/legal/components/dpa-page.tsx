// Route '/dpa'.
import { LegalPage } from './legal-page';

export function DpaPage() {
  return (
    <LegalPage
      title="Data Processing Agreement"
      summary="The terms under which Purser processes personal data on behalf of its customers."
      points={[
        'Customers are notified of new subprocessors 30 days in advance.',
        'Security incidents are reported within 24 hours.',
      ]}
    />
  );
}
