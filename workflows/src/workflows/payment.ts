// paymentWorkflow: one payment intent from creation to settlement (ARCHITECTURE.md, "Payment
// workflow"). The intent id is the business id and the workflow id is derived from it, so a
// retried request never starts a second payment. The database is the source of truth for the
// intent's status: every step is a guarded transition there, so an owner's cancel or decision
// that races the workflow is settled by the database, and the workflow follows its answer.
//
// intent.created -> policy and KYA gate -> [approval wait, bounded by the time box] ->
// intent.approved -> rail selection -> reserve -> execute -> capture (or release: the
// compensation of the reserve) -> settlement.completed -> audit.
//
// Following a pending rail operation has no bound in time (a payment channel stays open as long
// as its agent uses it), so that loop continues as new when Temporal suggests it; a run that
// ends without its intent ending (terminated by an operator, failed) is found and run again by
// the server's reconciler (services/intents/reconcile-payment-workflows.ts).
//
// The front (gate, approval's outcome, rail, reserve) is one step, authorizePayment, that
// records its outcome in one transaction; the workflow follows the outcome, and waits for the
// owner when the payment needs approval. The progress still lists each of the front's steps.
//
// A paid call is authorised, held and signed in the agent's request, and the seller has usually
// settled it on chain by the time its workflow starts: then the workflow has one step,
// settlePaidInRequest, which captures, emits and audits in one transaction (the history holds
// that step and nothing else of the payment's).
import { condition, continueAsNew, patched, proxyActivities, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { AuthorizeOutcome, IntentStatus, PaymentActivities, PaymentSteps, RailName } from '@purser/core';
import { PAYMENT_FAILURES } from '../constants';
import { frontBeforeOneFront, type FrontParts, type FrontResult } from './payment-front-before-one-front';
import { approvalDecidedSignal, cancelSignal, policyChangedSignal, progressQuery, railUpdatedSignal, type PaymentProgress, type PaymentStepRecord, type PaymentWorkflowInput } from './payment-messages';
import { businessFailure, firedSummary, ProgressLog, railDetail, type PaymentSignals } from './payment-parts';

// Database steps retry until the database answers: a payment must never stop half-way with
// funds held. Business failures are non-retryable and end the step at once.
const DATABASE_RETRY = { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' } as const;
// The database steps (authorize, approval, release, settle, audit) run as local activities, in
// the worker that runs the workflow task: no round trip through the Temporal server each. Each
// is one idempotent transaction, safe to run again; a worker that dies mid-step leaves no
// marker in the history, and the step runs again elsewhere.
const local = proxyLocalActivities<PaymentActivities>({ startToCloseTimeout: '15 seconds', retry: DATABASE_RETRY });

/** A pending rail operation is asked again after this long when it names no time. */
const RAIL_POLL_MS = 1_000;
const MAX_RAIL_POLL_MS = 60_000;
/** Rounds of the front (a policy changed while the payment waited) before the payment gives up. */
const MAX_FRONT_ROUNDS = 20;

export async function paymentWorkflow({ intentId, maxRetries, following, paidInRequest }: PaymentWorkflowInput): Promise<PaymentProgress> {
  const progress: PaymentProgress = following ? following.progress : { intentId, status: 'created', currentStep: null, steps: [] };
  const log = new ProgressLog(progress);
  const signals: PaymentSignals = { decided: false, cancelled: false, policyChanged: false, railUpdated: false };
  setHandler(progressQuery, () => progress);
  setHandler(approvalDecidedSignal, () => void (signals.decided = true));
  setHandler(cancelSignal, () => void (signals.cancelled = true));
  setHandler(policyChangedSignal, () => void (signals.policyChanged = true));
  setHandler(railUpdatedSignal, () => void (signals.railUpdated = true));

  const finish = async (status: IntentStatus): Promise<PaymentProgress> => {
    progress.status = status;
    log.begin('audit');
    await local.recordWorkflowAudit(intentId, progress.steps);
    log.end('completed');
    progress.currentStep = null;
    return progress;
  };

  // ------------------------------------------------------------ the front
  // A run that continued as new is past it: its funds are held on `following.rail`.
  let railName: RailName;
  if (following) {
    railName = following.rail;
  } else {
    const parts: FrontParts = { intentId, log, signals, local };
    let front: FrontResult;
    // Runs recorded before 'end-paid-in-request' (and those a worker started that did not know
    // `paidInRequest`) take the front first, as they did. A run past it that cannot end at once
    // takes the one front: 'one-front' came before it.
    if (paidInRequest && patched('end-paid-in-request')) {
      const ended = await endPaidInRequest(intentId, progress, local);
      if (ended) return ended;
      front = await authorizeFront(parts);
    } else {
      // Runs recorded before 'one-front' took the front step by step; they finish that way.
      front = patched('one-front') ? await authorizeFront(parts) : await frontBeforeOneFront(parts);
    }
    if ('ended' in front) return finish(front.ended);
    railName = front.rail;
    progress.status = 'processing';
  }

  // ------------------------------------------------------------ execute, then capture or release
  // Executing may be retried maxRetries times. Following a pending operation is not bounded by
  // attempts: an x402 authorisation can be redeemed on chain until its window closes, so the
  // hold stays until the rail's answer is final, however long the chain's RPC is unreachable.
  const onRail = proxyActivities<PaymentSteps>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: maxRetries + 1 },
  });
  const untilFinal = proxyActivities<PaymentSteps>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
  });
  // The rails whose steps are short run them in the worker, as local activities with the same
  // retries: the ledger only records its operation; x402 signs with the agent's key and reads
  // the chain (a few RPC calls, each bounded by the client's timeout). Cancelling an x402
  // authorisation on chain (abandonRail) stays an activity.
  const inWorker = railName === 'ledger' || railName === 'x402-base';
  const execute = inWorker
    ? proxyLocalActivities<PaymentSteps>({
        startToCloseTimeout: '30 seconds',
        retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: maxRetries + 1 },
      })
    : onRail;
  const follow = inWorker
    ? proxyLocalActivities<PaymentSteps>({
        startToCloseTimeout: '30 seconds',
        retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
      })
    : untilFinal;
  if (!following) log.begin('execute');
  let failure: { code: string; message: string } | null = null;
  try {
    let result = following ? await follow.checkRail(intentId) : await executeOrAbandon();
    if (result === null) {
      failure = { code: 'RAIL_ERROR', message: `The rail failed after ${maxRetries + 1} attempts` };
    } else {
      while (result.status === 'pending') {
        // A channel may stay open for days, one look every 30 s (and one more per signal): the
        // history would outgrow Temporal's limit, which terminates the run with the funds held.
        // The next run follows the same rail with the progress so far (runs recorded before
        // 'follow-continue-as-new' never continue).
        if (workflowInfo().continueAsNewSuggested && patched('follow-continue-as-new')) {
          await continueAsNew<typeof paymentWorkflow>({ intentId, maxRetries, following: { rail: railName, progress } });
        }
        const wait = result.checkAfter ? Date.parse(result.checkAfter) - Date.now() : RAIL_POLL_MS;
        await condition(() => signals.railUpdated, Math.min(Math.max(wait, 100), MAX_RAIL_POLL_MS));
        signals.railUpdated = false;
        result = await follow.checkRail(intentId);
      }
      log.end('completed', result.reference);
    }
  } catch (error) {
    const business = businessFailure(error);
    if (!business) throw error;
    failure = business;
  }
  if (failure) log.end('failed', failure.message);

  /** The rail's first answer; when execute keeps failing, the rail is told to stand down first. */
  async function executeOrAbandon() {
    try {
      return await execute.executeOnRail(intentId);
    } catch (error) {
      if (businessFailure(error)) throw error;
      // Histories written before abandonRail existed went straight to the release.
      if (!patched('abandon-rail-before-release')) return null;
      return untilFinal.abandonRail(intentId);
    }
  }

  if (failure) {
    log.begin('release');
    await local.releaseFunds(intentId, failure);
    log.end('completed', 'held funds returned to the agent');
    log.skip('capture', 'payment failed');
    return finish('failed');
  }

  // Capture, settlement.completed and the audit entry commit together: the steps are recorded
  // as they stand once that transaction has committed.
  log.begin('capture');
  const at = new Date().toISOString();
  const settled: PaymentStepRecord[] = [...progress.steps.slice(0, -1), ...settledEnd(at)];
  try {
    await local.settle(intentId, settled);
  } catch (error) {
    // The chain shows a settlement the capture cannot match to what was held: the capture is
    // refused for good and an operator alerted (payments/payment-steps.ts). The funds stay held
    // and the intent open, for the operator; the run ends here, so nothing retries it, and the
    // reconciler leaves it alone.
    if (businessFailure(error)?.type !== PAYMENT_FAILURES.CAPTURE_INVARIANT) throw error;
    log.end('failed', 'the settlement on chain does not match what was held; held for an operator');
    progress.currentStep = null;
    return progress;
  }
  Object.assign(progress, { status: 'settled', currentStep: null, steps: settled });
  return progress;
}

/** What the workflow records once a payment has settled: capture, no release, the event, the audit entry. */
function settledEnd(at: string): PaymentStepRecord[] {
  return [
    { step: 'capture', status: 'completed', at },
    { step: 'release', status: 'skipped', at, detail: 'not needed' },
    { step: 'settlement.completed', status: 'completed', at },
    { step: 'audit', status: 'completed', at },
  ];
}

/**
 * A payment authorised in the agent's request, ended in one step when the seller has settled it
 * already: the progress of the settled payment; null when it is not there yet (its operation
 * pending, its funds not held by the request), and the workflow goes the usual way.
 */
async function endPaidInRequest(intentId: string, progress: PaymentProgress, local: FrontParts['local']): Promise<PaymentProgress | null> {
  const at = new Date().toISOString();
  let steps: PaymentStepRecord[] | null;
  try {
    steps = await local.settlePaidInRequest(intentId, settledEnd(at));
  } catch (error) {
    // As settle's: refused for good, the funds held and the intent open for an operator.
    if (businessFailure(error)?.type !== PAYMENT_FAILURES.CAPTURE_INVARIANT) throw error;
    Object.assign(progress, { status: 'processing', currentStep: null });
    progress.steps.push({ step: 'capture', status: 'failed', at, detail: 'the settlement on chain does not match what was held; held for an operator' });
    return progress;
  }
  if (!steps) return null;
  return Object.assign(progress, { status: 'settled', currentStep: null, steps });
}

/**
 * The front of a payment: authorizePayment decides it in one transaction, and the workflow
 * follows its outcome. A payment that needs approval waits for the owner (bounded by the time
 * box the outcome names), then goes to the front again: after an approval to be quoted and
 * held, after a policy change to be decided again.
 */
async function authorizeFront({ intentId, log, signals, local }: FrontParts): Promise<FrontResult> {
  const { progress } = log;
  signals.policyChanged = false;
  let outcome = await local.authorizePayment(intentId);
  log.done('intent.created', 'completed');
  let afterApproval = false;
  let waited = false;
  for (let round = 1; ; round++) {
    recordFront(log, outcome, { afterApproval, waited });
    if (outcome.outcome === 'authorized') return { rail: outcome.rail };
    if (outcome.outcome !== 'needs_approval') return { ended: outcome.status };
    if (round >= MAX_FRONT_ROUNDS) {
      return { ended: await local.failIntent(intentId, { code: 'GATE_UNSETTLED', message: 'The policy gate could not settle on a decision' }) };
    }

    progress.status = 'pending_approval';
    log.begin('approval');
    waited = true;
    const answer = await ownersAnswer(intentId, Date.parse(outcome.expiresAt), signals, local);
    if (answer === 'policy_changed') {
      log.end('skipped', 'a policy changed; evaluating again');
      afterApproval = false;
    } else if (answer === 'approved') {
      log.end('completed', 'approved by the owner');
      progress.status = 'approved';
      afterApproval = true;
    } else {
      log.end(answer === 'expired' ? 'failed' : 'skipped', `approval ${answer}`);
      return { ended: answer };
    }
    signals.policyChanged = false;
    outcome = await local.authorizePayment(intentId);
  }
}

/** Waits for the owner's decision, the time box or a policy change, whichever comes first. */
async function ownersAnswer(intentId: string, deadline: number, signals: PaymentSignals, local: FrontParts['local']) {
  for (;;) {
    // A signal that came while the front ran is still set here, so it is not missed.
    const signalled = await condition(() => signals.decided || signals.cancelled || signals.policyChanged, Math.max(0, deadline - Date.now()));
    signals.decided = false;
    if (signals.policyChanged) return 'policy_changed' as const;
    const answer = await local.resolveApproval(intentId, !signalled);
    if (answer !== 'pending') return answer;
    // Cancelled, but the database has not heard of it (it refused the cancel): wait on.
    signals.cancelled = false;
  }
}

/** The front's outcome as the steps it stands for. */
function recordFront(log: ProgressLog, outcome: AuthorizeOutcome, { afterApproval, waited }: { afterApproval: boolean; waited: boolean }): void {
  if (outcome.outcome === 'ended') {
    log.skip(afterApproval ? 'reserve' : 'policy_gate', `intent is ${outcome.status}`);
    return;
  }
  const refusedAt = outcome.outcome === 'refused' ? outcome.at : null;
  if (!afterApproval) {
    log.progress.status = outcome.outcome === 'needs_approval' ? 'pending_approval' : refusedAt === 'policy_gate' ? 'blocked' : 'approved';
    log.done('policy_gate', refusedAt === 'policy_gate' ? 'failed' : 'completed', firedSummary(outcome.decision));
    if (refusedAt === 'policy_gate') return log.done('policy_gate', 'failed', 'policy.violation emitted');
    if (outcome.outcome === 'needs_approval') return;
    if (!waited) log.skip('approval', 'not required');
  } else if (outcome.outcome === 'needs_approval') {
    return log.skip('reserve', 'limits changed: the owner must approve this payment');
  }
  log.done('intent.approved', 'completed');
  if (outcome.outcome === 'refused' && refusedAt === 'rail_selection') return log.done('rail_selection', 'failed', outcome.failure.message);
  const rail = outcome.outcome === 'authorized' ? outcome : outcome.outcome === 'refused' ? outcome.rail : null;
  log.done('rail_selection', 'completed', rail ? railDetail(rail) : undefined);
  log.done('reserve', outcome.outcome === 'refused' ? 'failed' : 'completed', outcome.outcome === 'refused' ? outcome.failure.message : undefined);
}
