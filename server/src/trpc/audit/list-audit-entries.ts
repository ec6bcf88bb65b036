import { listAuditEntries as listOwnerAuditEntries } from '../../services/audit/list-audit-entries';
import { ownerProcedure } from '../init';
import { listAuditEntriesInput, listAuditEntriesOutput } from './list-audit-entries.types';

export const listAuditEntries = ownerProcedure
  .input(listAuditEntriesInput)
  .output(listAuditEntriesOutput)
  .query(({ ctx, input }) => listOwnerAuditEntries(ctx.db.prisma, ctx.owner.userId, input));
