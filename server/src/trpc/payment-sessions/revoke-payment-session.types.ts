import { paymentSessionIdInput, paymentSessionView } from '@purser/core';

export const revokePaymentSessionInput = paymentSessionIdInput;
export const revokePaymentSessionOutput = paymentSessionView;
