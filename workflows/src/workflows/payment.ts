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
// The common payment (the gate allows it, the rail quotes it, the balance covers it) takes its
// front in one step: authorize runs gate, rail quote and reserve in one database transaction,
// and the progress still lists each of those steps. Every other payment takes them one by one.
import { ActivityFailure, ApplicationFailure, condition, patched, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import { evaluateGate, toGateDecision, type IntentStatus, type PaymentStep, type PaymentSteps, type RailName, type StepStatus } from '@purser/core';
import { DEFAULT_APPROVAL_TIME_BOX_MS, PAYMENT_FAILURES } from '../constants';
import {
  approvalDecidedSignal,
  cancelSignal,
  policyChangedSignal,
  progressQuery,
  railUpdatedSignal,
  type PaymentProgress,
  type PaymentStepRecord,
  type PaymentWorkflowInput,
} from './payment-messages';

// Database steps retry until the database answers: a payment must never stop half-way with
// funds held. Business failures are non-retryable and end the step at once.
const DATABASE_RETRY = { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' } as const;
// Histories from before 'authorize-in-one-step' ran reserve, capture and release as activities.
const db = proxyActivities<PaymentSteps>({ startToCloseTimeout: '15 seconds', retry: DATABASE_RETRY });
// The database steps (authorize, gate, approval, reserve, capture, release, events, audit) run
// as local activities, in the worker that runs the workflow task: no round trip through the
// Temporal server each. Each is one idempotent transaction, safe to run again; a worker that
// dies mid-step leaves no marker in the history, and the step runs again elsewhere.
const local = proxyLocalActivities<PaymentSteps>({ startToCloseTimeout: '15 seconds', retry: DATABASE_RETRY });

/** A pending rail operation is asked again after this long when it names no time. */
const RAIL_POLL_MS = 1_000;
const MAX_RAIL_POLL_MS = 60_000;
/** Re-evaluations of the gate (stale inputs, policy changes) before the payment gives up. */
const MAX_GATE_ROUNDS = 20;

export async function paymentWorkflow({ intentId, maxRetries }: PaymentWorkflowInput): Promise<PaymentProgress> {
  const progress: PaymentProgress = { intentId, status: 'created', currentStep: null, steps: [] };
  let decided = false;
  let cancelled = false;
  let policyChanged = false;
  let railUpdated = false;
  setHandler(progressQuery, () => progress);
  setHandler(approvalDecidedSignal, () => void (decided = true));
  setHandler(cancelSignal, () => void (cancelled = true));
  setHandler(policyChangedSignal, () => void (policyChanged = true));
  setHandler(railUpdatedSignal, () => void (railUpdated = true));

  const begin = (step: PaymentStep) => {
    progress.currentStep = step;
    progress.steps.push({ step, status: 'running', at: new Date().toISOString() });
  };
  const end = (status: StepStatus, detail?: string) => {
    const current = progress.steps[progress.steps.length - 1];
    if (current) Object.assign(current, { status, at: new Date().toISOString() }, detail === undefined ? {} : { detail });
  };
  const skip = (step: PaymentStep, detail: string) => progress.steps.push({ step, status: 'skipped', at: new Date().toISOString(), detail });
  const finish = async (status: IntentStatus): Promise<PaymentProgress> => {
    progress.status = status;
    begin('audit');
    await local.recordWorkflowAudit(intentId, progress.steps);
    end('completed');
    progress.currentStep = null;
    return progress;
  };

  // ------------------------------------------------------------ authorize in one step
  const oneStep = patched('authorize-in-one-step');
  const money = oneStep ? local : db;
  let railName: RailName | null = null;
  const authorized = oneStep ? await local.authorize(intentId) : ({ authorized: false } as const);
  if (authorized.authorized) {
    railName = authorized.rail;
    const at = new Date().toISOString();
    const done = (step: PaymentStep, status: StepStatus, detail?: string) => progress.steps.push({ step, status, at, ...(detail === undefined ? {} : { detail }) });
    done('intent.created', 'completed');
    done('policy_gate', 'completed', firedSummary(authorized.decision));
    done('approval', 'skipped', 'not required');
    done('intent.approved', 'completed');
    done('rail_selection', 'completed', railDetail(authorized));
    done('reserve', 'completed');
  }

  // ------------------------------------------------------------ gate, approval, rail, reserve, one by one
  // Reserve re-checks every limit under the wallet's lock; when limits moved since the gate so
  // that the owner must now approve, the intent goes back to pending approval and round again.
  let approvalOpened: number | null = null;
  if (!authorized.authorized) {
    begin('intent.created');
    await local.emitEvent(intentId, 'intent.created');
    end('completed');

    for (let round = 0; ; round++) {
      if (round >= MAX_GATE_ROUNDS) {
        return finish(await local.failIntent(intentId, { code: 'GATE_UNSETTLED', message: 'The policy gate could not settle on a decision' }));
      }
      const gate = await gateAndApproval();
      if (gate === 'again') continue;
      if (gate !== 'approved') return finish(gate);

      progress.status = 'approved';
      begin('intent.approved');
      await local.emitEvent(intentId, 'intent.approved');
      end('completed');

      begin('rail_selection');
      try {
        const rail = await local.selectRail(intentId);
        railName = rail.rail;
        end('completed', railDetail(rail));
      } catch (error) {
        const failure = businessFailure(error);
        if (!failure) throw error;
        end('failed', failure.message);
        return finish(await local.failIntent(intentId, failure));
      }

      begin('reserve');
      let reserved;
      try {
        reserved = await money.reserveFunds(intentId);
      } catch (error) {
        const failure = businessFailure(error);
        if (!failure) throw error;
        end('failed', failure.message);
        if (failure.type === PAYMENT_FAILURES.POLICY_VIOLATION) {
          await local.emitEvent(intentId, 'policy.violation');
          return finish('blocked');
        }
        return finish('failed');
      }
      if (reserved.status === 'reserved') {
        end('completed');
        break;
      }
      if ('ended' in reserved) {
        end('skipped', `intent is ${reserved.status}`);
        return finish(reserved.status);
      }
      end('skipped', 'limits changed: the owner must approve this payment');
      approvalOpened = null;
    }
  }
  progress.status = 'processing';

  /** One round of the gate and, when required, the owner's approval. */
  async function gateAndApproval(): Promise<'approved' | 'again' | IntentStatus> {
    begin('policy_gate');
    policyChanged = false;
    const input = await local.loadGate(intentId);
    if (input.status !== 'created' && input.status !== 'pending_approval') {
      end('skipped', `intent is ${input.status}`);
      return input.status;
    }
    const at = new Date();
    const evaluation = evaluateGate(input, at);
    const outcome = await local.applyGate(intentId, toGateDecision(evaluation, at), input.revision);
    if ('stale' in outcome) {
      end('skipped', 'inputs changed during evaluation; evaluating again');
      return 'again';
    }
    progress.status = outcome.status;
    end(evaluation.decision === 'deny' ? 'failed' : 'completed', firedSummary(evaluation));

    if (outcome.status === 'blocked') {
      begin('policy_gate');
      await local.emitEvent(intentId, 'policy.violation');
      end('failed', 'policy.violation emitted');
      return 'blocked';
    }
    if (outcome.status === 'approved') {
      if (approvalOpened === null) skip('approval', 'not required');
      return 'approved';
    }
    if (outcome.status !== 'pending_approval') return outcome.status;

    // Wait for the owner, bounded by the time box (the shortest of the enforced policies', else 24h).
    begin('approval');
    approvalOpened ??= Date.now();
    const deadline = approvalOpened + (evaluation.timeBoxMs ?? DEFAULT_APPROVAL_TIME_BOX_MS);
    let answer = await local.openApproval(intentId, new Date(deadline).toISOString());
    while (answer === 'pending' && !policyChanged) {
      // A signal that came while openApproval ran is still set here, so it is not missed.
      const signalled = await condition(() => decided || cancelled || policyChanged, Math.max(0, deadline - Date.now()));
      decided = false;
      if (policyChanged) break;
      answer = await local.resolveApproval(intentId, !signalled);
    }
    if (answer === 'pending') {
      end('skipped', 'a policy changed; evaluating again');
      return 'again';
    }
    if (answer !== 'approved') {
      end(answer === 'expired' ? 'failed' : 'skipped', `approval ${answer}`);
      return answer;
    }
    end('completed', 'approved by the owner');
    return 'approved';
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
  // Since 'authorize-in-one-step', the rails whose steps are short run them in the worker, as
  // local activities with the same retries: the ledger only records its operation; x402 signs
  // with the agent's key and reads the chain (a few RPC calls, each bounded by the client's
  // timeout). Cancelling an x402 authorisation on chain (abandonRail) stays an activity.
  const inWorker = oneStep && (railName === 'ledger' || railName === 'x402-base');
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
  begin('execute');
  let failure: { code: string; message: string } | null = null;
  try {
    let result = await executeOrAbandon();
    if (result === null) {
      failure = { code: 'RAIL_ERROR', message: `The rail failed after ${maxRetries + 1} attempts` };
    } else {
      while (result.status === 'pending') {
        const wait = result.checkAfter ? Date.parse(result.checkAfter) - Date.now() : RAIL_POLL_MS;
        await condition(() => railUpdated, Math.min(Math.max(wait, 100), MAX_RAIL_POLL_MS));
        railUpdated = false;
        result = await follow.checkRail(intentId);
      }
      end('completed', result.reference);
    }
  } catch (error) {
    const business = businessFailure(error);
    if (!business) throw error;
    failure = business;
  }
  if (failure) end('failed', failure.message);

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
    begin('release');
    await money.releaseFunds(intentId, failure);
    end('completed', 'held funds returned to the agent');
    skip('capture', 'payment failed');
    return finish('failed');
  }

  if (oneStep) {
    // Capture, settlement.completed and the audit entry commit together: the steps are
    // recorded as they stand once that transaction has committed.
    begin('capture');
    const at = new Date().toISOString();
    const settled: PaymentStepRecord[] = [
      ...progress.steps.slice(0, -1),
      { step: 'capture', status: 'completed', at },
      { step: 'release', status: 'skipped', at, detail: 'not needed' },
      { step: 'settlement.completed', status: 'completed', at },
      { step: 'audit', status: 'completed', at },
    ];
    await local.settle(intentId, settled);
    Object.assign(progress, { status: 'settled', currentStep: null, steps: settled });
    return progress;
  }

  // Histories from before 'authorize-in-one-step': capture, then the event, then the audit.
  begin('capture');
  await db.capturePayment(intentId);
  end('completed');
  skip('release', 'not needed');
  progress.status = 'settled';

  begin('settlement.completed');
  await local.emitEvent(intentId, 'settlement.completed');
  end('completed');
  return finish('settled');
}

function railDetail({ rail, sandbox }: { rail: RailName; sandbox: boolean }): string {
  return `${rail}${sandbox ? ' (sandbox)' : ''}`;
}

function firedSummary(evaluation: { decision: string; fired: { shadow: boolean; code: string }[] }): string {
  const enforced = evaluation.fired.filter((rule) => !rule.shadow).map((rule) => rule.code);
  return enforced.length ? `${evaluation.decision}: ${enforced.join(', ')}` : evaluation.decision;
}

/** The typed business failure behind an activity failure, or null for anything else. */
function businessFailure(error: unknown): { type: string; code: string; message: string } | null {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (!(cause instanceof ApplicationFailure) || !cause.nonRetryable || !cause.type) return null;
  const detail = (cause.details?.[0] ?? {}) as { code?: string; message?: string };
  return { type: cause.type, code: detail.code ?? cause.type, message: detail.message ?? cause.message };
}
