import { intentIdInput, paymentReceiptView } from '@purser/core';

export const getPaymentReceiptInput = intentIdInput;
export const getPaymentReceiptOutput = paymentReceiptView;
