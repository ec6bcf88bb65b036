import { revokeConnection as revokeOwnerConnection } from '../../services/oauth/revoke-connection';
import { ownerProcedure } from '../init';
import { revokeConnectionInput, revokeConnectionOutput } from './revoke-connection.types';

/** The owner ends a connection from the console: it and its tokens stop at once. */
export const revokeConnection = ownerProcedure
  .input(revokeConnectionInput)
  .output(revokeConnectionOutput)
  .mutation(({ ctx, input }) => revokeOwnerConnection(ctx, ctx.owner.userId, input.connectionId));
