import { paymentSessionApprovalLinkInput, paymentSessionApprovalLinkView } from '@purser/core';

export const approvalLinkInput = paymentSessionApprovalLinkInput;
export const approvalLinkOutput = paymentSessionApprovalLinkView;
