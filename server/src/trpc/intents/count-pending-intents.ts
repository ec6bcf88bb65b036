import { countPendingIntents as countPending } from '../../services/intents/count-pending-intents';
import { ownerProcedure } from '../init';
import { countPendingIntentsOutput } from './count-pending-intents.types';

export const countPendingIntents = ownerProcedure.output(countPendingIntentsOutput).query(({ ctx }) => countPending(ctx.db.prisma, ctx.owner.userId));
