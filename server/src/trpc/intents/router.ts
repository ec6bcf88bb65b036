import { router } from '../init';
import { approveIntent } from './approve-intent';
import { attachPolicy } from './attach-policy';
import { cancelIntent } from './cancel-intent';
import { countPendingIntents } from './count-pending-intents';
import { createIntent } from './create-intent';
import { getIntent } from './get-intent';
import { getIntentProgress } from './get-intent-progress';
import { getPaymentDetail } from './get-payment-detail';
import { getPaymentReceipt } from './get-payment-receipt';
import { listIntents } from './list-intents';
import { rejectIntent } from './reject-intent';

export const intentsRouter = router({
  create: createIntent,
  get: getIntent,
  list: listIntents,
  pendingCount: countPendingIntents,
  detail: getPaymentDetail,
  receipt: getPaymentReceipt,
  progress: getIntentProgress,
  attachPolicy,
  approve: approveIntent,
  reject: rejectIntent,
  cancel: cancelIntent,
});
