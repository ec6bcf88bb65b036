// The credential's standing as the server reports it. The platform's status list marks an
// agent's credential valid only while the agent is active (services/identity/
// build-agent-status-list.ts): suspending it suspends the credential until reactivation, and
// deleting it revokes the credential for good. Verify asks the server to check it now.

export type CredentialStanding = 'active' | 'suspended' | 'revoked' | 'none';

export interface CredentialStatus {
  standing: CredentialStanding;
  label: string;
  color: 'success' | 'warning' | 'error' | 'default';
  description: string;
}

export function credentialStatus(agentStatus: 'active' | 'suspended' | 'deleted', hasCredential: boolean): CredentialStatus {
  if (!hasCredential) return { standing: 'none', label: 'None', color: 'default', description: 'This agent has no verifiable credential.' };
  if (agentStatus === 'active') {
    return { standing: 'active', label: 'Active', color: 'success', description: 'The status list marks the credential valid while the agent is active.' };
  }
  if (agentStatus === 'suspended') {
    return {
      standing: 'suspended',
      label: 'Suspended',
      color: 'warning',
      description: 'The status list marks the credential invalid while the agent is suspended; reactivating the agent restores it.',
    };
  }
  return { standing: 'revoked', label: 'Revoked', color: 'error', description: 'The agent was deleted, so its credential is revoked for good.' };
}

/** The fields of agents.verifyCredential's answer the page reads. */
export interface VerificationAnswer {
  valid: boolean;
  revoked: boolean;
  errors: string[];
}

export interface VerificationOutcome {
  valid: boolean;
  title: string;
  reasons: string[];
}

/** 'Valid' or 'Invalid', with every reason the server gave (or a generic one if it gave none). */
export function verificationOutcome(answer: VerificationAnswer): VerificationOutcome {
  if (answer.valid) return { valid: true, title: 'Valid', reasons: ['Signature, expiry and status all check out.'] };
  const reasons = answer.errors.length > 0 ? answer.errors : [answer.revoked ? 'Credential has been revoked' : 'The credential did not verify'];
  return { valid: false, title: 'Invalid', reasons };
}
