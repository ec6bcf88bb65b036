import { paymentSessionIdInput, paymentSessionView } from '@purser/core';

export const getPaymentSessionInput = paymentSessionIdInput;
export const getPaymentSessionOutput = paymentSessionView;
