import { intentIdInput, paymentDetailView } from '@purser/core';

export const getPaymentDetailInput = intentIdInput;
export const getPaymentDetailOutput = paymentDetailView;
