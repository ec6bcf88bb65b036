import { issuePaymentReceipt } from '../../services/payments/issue-payment-receipt';
import { ownerProcedure } from '../init';
import { getPaymentReceiptInput, getPaymentReceiptOutput } from './get-payment-receipt.types';

export const getPaymentReceipt = ownerProcedure
  .input(getPaymentReceiptInput)
  .output(getPaymentReceiptOutput)
  .query(({ ctx, input }) => issuePaymentReceipt(ctx, { ownerId: ctx.owner.userId }, input.intentId));
