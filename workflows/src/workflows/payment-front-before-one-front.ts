// The front of a payment as runs recorded before the 'one-front' patch took it: authorize for
// the payment that needed nothing else, and the gate, the approval, the rail and the reserve one
// by one for every other. Such a run replays through this code (workflows/test/histories hold
// runs it recorded) and, if it is still open, carries on here: each step it calls is now the
// one front (authorizePayment) answered in the shape it expects.
//
// It goes once no run recorded before 'one-front' is open: payment.ts then calls
// deprecatePatch('one-front') and drops this file (workflows/README.md, "Changing the workflow").
import { condition, deprecatePatch, type proxyLocalActivities } from '@temporalio/workflow';
import { evaluateGate, gateInputFromJson, toGateDecision, type IntentStatus, type PaymentActivities, type RailName } from '@purser/core';
import { DEFAULT_APPROVAL_TIME_BOX_MS, PAYMENT_FAILURES } from '../constants';
import { businessFailure, firedSummary, railDetail, type PaymentSignals, type ProgressLog } from './payment-parts';

/** Re-evaluations of the gate (stale inputs, policy changes) before the payment gives up. */
const MAX_GATE_ROUNDS = 20;

export interface FrontParts {
  intentId: string;
  log: ProgressLog;
  signals: PaymentSignals;
  local: ReturnType<typeof proxyLocalActivities<PaymentActivities>>;
}

/** The funds are held on `rail`, or the payment ended with `ended`. */
export type FrontResult = { rail: RailName } | { ended: IntentStatus };

export async function frontBeforeOneFront({ intentId, log, signals, local }: FrontParts): Promise<FrontResult> {
  const { progress } = log;
  // Every run that reaches this code began after 'authorize-in-one-step'; the code before it is gone.
  deprecatePatch('authorize-in-one-step');
  const authorized = await local.authorize(intentId);
  if (authorized.authorized) {
    log.done('intent.created', 'completed');
    log.done('policy_gate', 'completed', firedSummary(authorized.decision));
    log.skip('approval', 'not required');
    log.done('intent.approved', 'completed');
    log.done('rail_selection', 'completed', railDetail(authorized));
    log.done('reserve', 'completed');
    return { rail: authorized.rail };
  }

  // Reserve re-checks every limit under the wallet's lock; when limits moved since the gate so
  // that the owner must now approve, the intent goes back to pending approval and round again.
  let approvalOpened: number | null = null;
  log.begin('intent.created');
  await local.emitEvent(intentId, 'intent.created');
  log.end('completed');

  for (let round = 0; ; round++) {
    if (round >= MAX_GATE_ROUNDS) {
      return { ended: await local.failIntent(intentId, { code: 'GATE_UNSETTLED', message: 'The policy gate could not settle on a decision' }) };
    }
    const gate = await gateAndApproval();
    if (gate === 'again') continue;
    if (gate !== 'approved') return { ended: gate };

    progress.status = 'approved';
    log.begin('intent.approved');
    await local.emitEvent(intentId, 'intent.approved');
    log.end('completed');

    log.begin('rail_selection');
    let railName: RailName;
    try {
      const rail = await local.selectRail(intentId);
      railName = rail.rail;
      log.end('completed', railDetail(rail));
    } catch (error) {
      const failure = businessFailure(error);
      if (!failure) throw error;
      log.end('failed', failure.message);
      return { ended: await local.failIntent(intentId, failure) };
    }

    log.begin('reserve');
    let reserved;
    try {
      reserved = await local.reserveFunds(intentId);
    } catch (error) {
      const failure = businessFailure(error);
      if (!failure) throw error;
      log.end('failed', failure.message);
      if (failure.type === PAYMENT_FAILURES.POLICY_VIOLATION) {
        await local.emitEvent(intentId, 'policy.violation');
        return { ended: 'blocked' };
      }
      return { ended: 'failed' };
    }
    if (reserved.status === 'reserved') {
      log.end('completed');
      return { rail: railName };
    }
    if ('ended' in reserved) {
      log.end('skipped', `intent is ${reserved.status}`);
      return { ended: reserved.status };
    }
    log.end('skipped', 'limits changed: the owner must approve this payment');
    approvalOpened = null;
  }

  /** One round of the gate and, when required, the owner's approval. */
  async function gateAndApproval(): Promise<'approved' | 'again' | IntentStatus> {
    log.begin('policy_gate');
    signals.policyChanged = false;
    const input = await local.loadGate(intentId);
    if (input.status !== 'created' && input.status !== 'pending_approval') {
      log.end('skipped', `intent is ${input.status}`);
      return input.status;
    }
    const at = new Date();
    const evaluation = evaluateGate(gateInputFromJson(input), at);
    const outcome = await local.applyGate(intentId, toGateDecision(evaluation, at), input.revision);
    if ('stale' in outcome) {
      log.end('skipped', 'inputs changed during evaluation; evaluating again');
      return 'again';
    }
    progress.status = outcome.status;
    log.end(evaluation.decision === 'deny' ? 'failed' : 'completed', firedSummary(evaluation));

    if (outcome.status === 'blocked') {
      log.begin('policy_gate');
      await local.emitEvent(intentId, 'policy.violation');
      log.end('failed', 'policy.violation emitted');
      return 'blocked';
    }
    if (outcome.status === 'approved') {
      if (approvalOpened === null) log.skip('approval', 'not required');
      return 'approved';
    }
    if (outcome.status !== 'pending_approval') return outcome.status;

    // Wait for the owner, bounded by the time box (the shortest of the enforced policies', else 24h).
    log.begin('approval');
    approvalOpened ??= Date.now();
    const deadline = approvalOpened + (evaluation.timeBoxMs ?? DEFAULT_APPROVAL_TIME_BOX_MS);
    let answer = await local.openApproval(intentId, new Date(deadline).toISOString());
    while (answer === 'pending' && !signals.policyChanged) {
      // A signal that came while openApproval ran is still set here, so it is not missed.
      const signalled = await condition(() => signals.decided || signals.cancelled || signals.policyChanged, Math.max(0, deadline - Date.now()));
      signals.decided = false;
      if (signals.policyChanged) break;
      answer = await local.resolveApproval(intentId, !signalled);
    }
    if (answer === 'pending') {
      log.end('skipped', 'a policy changed; evaluating again');
      return 'again';
    }
    if (answer !== 'approved') {
      log.end(answer === 'expired' ? 'failed' : 'skipped', `approval ${answer}`);
      return answer;
    }
    log.end('completed', 'approved by the owner');
    return 'approved';
  }
}
