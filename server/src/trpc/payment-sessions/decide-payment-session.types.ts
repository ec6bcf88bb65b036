import { decidePaymentSessionInput as decideInput, paymentSessionView } from '@purser/core';

export const decidePaymentSessionInput = decideInput;
export const decidePaymentSessionOutput = paymentSessionView;
