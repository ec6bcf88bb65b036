import { router } from '../init';
import { createAgent } from './create-agent';
import { deleteAgent } from './delete-agent';
import { getAgent } from './get-agent';
import { getAgentIdentity } from './get-agent-identity';
import { getKillSwitch } from './get-kill-switch';
import { getSpendHistory } from './get-spend-history';
import { listAgentTransactions } from './list-agent-transactions';
import { listAgents } from './list-agents';
import { listKyaVerifications } from './list-kya-verifications';
import { pauseAllAgents } from './pause-all-agents';
import { reactivateAgent } from './reactivate-agent';
import { requestKyaEscalation } from './request-kya-escalation';
import { resumeAllAgents } from './resume-all-agents';
import { revokeAgentSigningKey } from './revoke-agent-signing-key';
import { rotateAgentApiKey } from './rotate-agent-api-key';
import { rotateAgentSigningKey } from './rotate-agent-signing-key';
import { suspendAgent } from './suspend-agent';
import { updateRequestSigning } from './update-request-signing';
import { updateSpendingRules } from './update-spending-rules';
import { verifyAgentCredential } from './verify-agent-credential';

export const agentsRouter = router({
  list: listAgents,
  get: getAgent,
  create: createAgent,
  updateSpendingRules,
  suspend: suspendAgent,
  reactivate: reactivateAgent,
  delete: deleteAgent,
  rotateApiKey: rotateAgentApiKey,
  transactions: listAgentTransactions,
  requestKyaEscalation,
  kyaVerifications: listKyaVerifications,
  pauseAll: pauseAllAgents,
  resumeAll: resumeAllAgents,
  killSwitch: getKillSwitch,
  verifyCredential: verifyAgentCredential,
  spendHistory: getSpendHistory,
  identity: getAgentIdentity,
  updateRequestSigning,
  rotateSigningKey: rotateAgentSigningKey,
  revokeSigningKey: revokeAgentSigningKey,
});
