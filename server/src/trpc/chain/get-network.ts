import { networkView } from '../../services/agent-api/network-view';
import { ownerProcedure } from '../init';
import { getNetworkOutput } from './get-network.types';

export const getNetwork = ownerProcedure.output(getNetworkOutput).query(({ ctx }) => networkView(ctx.chain));
