import { getKillSwitch as getOwnerKillSwitch } from '../../services/agents/get-kill-switch';
import { ownerProcedure } from '../init';
import { getKillSwitchOutput } from './get-kill-switch.types';

export const getKillSwitch = ownerProcedure.output(getKillSwitchOutput).query(({ ctx }) => getOwnerKillSwitch(ctx.db.prisma, ctx.owner.userId));
