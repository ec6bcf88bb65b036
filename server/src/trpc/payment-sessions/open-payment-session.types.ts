import { openPaymentSessionInput as openInput, paymentSessionView } from '@purser/core';

export const openPaymentSessionInput = openInput;
export const openPaymentSessionOutput = paymentSessionView;
