import { countWaitingRequests as countWaiting } from '../../services/payment-sessions/count-waiting-requests';
import { ownerProcedure } from '../init';
import { countWaitingRequestsOutput } from './count-waiting-requests.types';

/** How many budget requests of the owner's agents wait for a decision: part of the inbox badge. */
export const countWaitingRequests = ownerProcedure.output(countWaitingRequestsOutput).query(({ ctx }) => countWaiting(ctx, ctx.owner.userId));
