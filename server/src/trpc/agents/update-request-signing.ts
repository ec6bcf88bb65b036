import { updateRequestSigning as updateAgentRequestSigning } from '../../services/agents/update-request-signing';
import { ownerProcedure } from '../init';
import { updateRequestSigningInput, updateRequestSigningOutput } from './update-request-signing.types';

export const updateRequestSigning = ownerProcedure
  .input(updateRequestSigningInput)
  .output(updateRequestSigningOutput)
  .mutation(({ ctx, input }) => updateAgentRequestSigning(ctx, ctx.owner.userId, input.agent_id, { request_signing: input.request_signing }));
