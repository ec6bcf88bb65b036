import { router } from '../init';
import { listAuditEntries } from './list-audit-entries';
import { verifyAuditChain } from './verify-audit-chain';

export const auditRouter = router({ list: listAuditEntries, verify: verifyAuditChain });
