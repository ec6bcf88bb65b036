import { publicProcedure } from '../init';

export const getHealth = publicProcedure.query(({ ctx }) => ctx.health.check());
