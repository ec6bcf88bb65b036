import { listPaymentSessionsInput as listInput, paymentSessionListView } from '@purser/core';

export const listPaymentSessionsInput = listInput;
export const listPaymentSessionsOutput = paymentSessionListView;
