import { ownerApiKeyListView } from '@purser/core';
import { listOwnerApiKeys } from '../../services/api-keys/list-owner-api-key';
import { ownerProcedure } from '../init';

export const listApiKeys = ownerProcedure.output(ownerApiKeyListView).query(({ ctx }) => listOwnerApiKeys(ctx.db.prisma, ctx.owner));
