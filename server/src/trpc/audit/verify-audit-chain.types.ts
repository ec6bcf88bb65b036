import { auditVerificationView } from '@purser/core';

export const verifyAuditChainOutput = auditVerificationView;
