import { verifyOwnerAuditChain } from '../../services/audit/verify-owner-audit-chain';
import { ownerProcedure } from '../init';
import { verifyAuditChainOutput } from './verify-audit-chain.types';

/** Walks the owner's whole chain: a read of every entry, so the console asks for it once per visit. */
export const verifyAuditChain = ownerProcedure.output(verifyAuditChainOutput).query(({ ctx }) => verifyOwnerAuditChain(ctx.db.prisma, ctx.owner.userId));
