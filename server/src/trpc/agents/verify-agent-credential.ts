import { verifyStoredCredential } from '../../services/agents/verify-stored-credential';
import { ownerProcedure } from '../init';
import { verifyAgentCredentialInput, verifyAgentCredentialOutput } from './verify-agent-credential.types';

export const verifyAgentCredential = ownerProcedure
  .input(verifyAgentCredentialInput)
  .output(verifyAgentCredentialOutput)
  .query(({ ctx, input }) => verifyStoredCredential(ctx, ctx.owner.userId, input.agentId));
