import { createdOwnerApiKeyView, createOwnerApiKeyInput } from '@purser/core';
import { createOwnerApiKey } from '../../services/api-keys/create-owner-api-key';
import { ownerProcedure } from '../init';

/** Answers the whole key once; it cannot be read again. */
export const createApiKey = ownerProcedure
  .input(createOwnerApiKeyInput)
  .output(createdOwnerApiKeyView)
  .mutation(({ ctx, input }) => createOwnerApiKey(ctx.db.prisma, ctx.owner, input));
