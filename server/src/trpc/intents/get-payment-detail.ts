import { getPaymentDetail as readPaymentDetail } from '../../services/intents/get-payment-detail';
import { ownerProcedure } from '../init';
import { getPaymentDetailInput, getPaymentDetailOutput } from './get-payment-detail.types';

export const getPaymentDetail = ownerProcedure
  .input(getPaymentDetailInput)
  .output(getPaymentDetailOutput)
  .query(({ ctx, input }) => readPaymentDetail(ctx, ctx.owner.userId, input.intentId));
