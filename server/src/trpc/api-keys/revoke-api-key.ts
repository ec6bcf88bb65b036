import { ownerApiKeyView, revokeOwnerApiKeyInput } from '@purser/core';
import { revokeOwnerApiKey } from '../../services/api-keys/revoke-owner-api-key';
import { ownerProcedure } from '../init';

export const revokeApiKey = ownerProcedure
  .input(revokeOwnerApiKeyInput)
  .output(ownerApiKeyView)
  .mutation(({ ctx, input }) => revokeOwnerApiKey(ctx.db.prisma, ctx.owner, input));
