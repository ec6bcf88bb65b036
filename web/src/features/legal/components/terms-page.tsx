// Route '/terms'.
import { LegalPage } from './legal-page';

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      summary="These terms govern the use of Purser by owners and the agents they operate."
      points={[
        'Owners are responsible for the agents they create and the spending rules they set.',
        'Liability is capped at the fees paid in the 3 months before the incident.',
        'The terms are governed by the laws of Ontario, with the courts of Toronto.',
      ]}
    />
  );
}
