import { decidePaymentSessionByLinkInput, paymentSessionView } from '@purser/core';

export const decideByLinkInput = decidePaymentSessionByLinkInput;
export const decideByLinkOutput = paymentSessionView;
