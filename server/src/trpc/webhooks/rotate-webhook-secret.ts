import { rotateWebhookSecret as rotateOwnerWebhookSecret } from '../../services/webhooks/rotate-webhook-secret';
import { ownerProcedure } from '../init';
import { rotateWebhookSecretInput, rotateWebhookSecretOutput } from './rotate-webhook-secret.types';

export const rotateWebhookSecret = ownerProcedure
  .input(rotateWebhookSecretInput)
  .output(rotateWebhookSecretOutput)
  .mutation(({ ctx, input }) => rotateOwnerWebhookSecret(ctx, ctx.owner.userId, input));
