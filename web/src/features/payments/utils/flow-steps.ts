// The payment page's drawing, as data: the workflow's step records (realtime.intentProgress)
// folded into one state per node. Pure, so every rule below is unit-tested without a browser.
//
// Rules:
// - A step recorded more than once (the gate runs again in a new round, a blocked payment adds
//   a second gate record) shows its last record; the earlier ones are kept as its history.
// - The intent's status is the database's word and comes with the same message: it fills in
//   what the records cannot say yet or any more (a step the workflow has not reported at the
//   instant the status changed, or a finished workflow Temporal no longer keeps). It only
//   upgrades a node that has no record or is still running; a record's failed or skipped stands.
// - Once the payment has ended, the steps it never reached are skipped, not waiting.
// - Webhooks are not a workflow step: the node sums up the intent's webhook deliveries.
// - Identity is not one either: a paid call's request (x402 or MPP), sent once the payment is
//   held, signed as the agent (Web Bot Auth / Visa TAP) or not. Other rails send no request and
//   draw no identity node.
// - A paid call's rail node names the protocol it is paid in: the workflow's words name the rail
//   alone (x402-base, which says x402), so an MPP payment's node is titled 'Rail · MPP'.
import type { IntentStatus, PaymentProtocol, PaymentStep, StepStatus } from '@purser/core';

export type FlowNodeId = PaymentStep | 'identity' | 'webhooks';
export type FlowNodeState = 'waiting' | 'running' | 'completed' | 'failed' | 'skipped';

/** The nodes in the workflow's order; capture and release are the two ends of one branch. */
export const FLOW_NODE_IDS = [
  'intent.created',
  'policy_gate',
  'approval',
  'intent.approved',
  'rail_selection',
  'reserve',
  'identity',
  'execute',
  'capture',
  'release',
  'settlement.completed',
  'audit',
  'webhooks',
] as const satisfies readonly FlowNodeId[];

export const FLOW_NODE_TITLES: Record<FlowNodeId, string> = {
  'intent.created': 'Intent',
  policy_gate: 'Policy & KYA gate',
  approval: 'Approval',
  'intent.approved': 'Approved',
  rail_selection: 'Rail',
  reserve: 'Hold',
  identity: 'Identity',
  execute: 'Execute',
  capture: 'Capture',
  release: 'Release',
  'settlement.completed': 'Settlement',
  audit: 'Audit',
  webhooks: 'Webhooks',
};

const STATE_LABELS: Record<FlowNodeState, string> = {
  waiting: 'Waiting',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  skipped: 'Skipped',
};

/** No step runs after these (core's TERMINAL_INTENT_STATUSES; restated to keep zod out of this chunk). */
const TERMINAL_STATUSES: ReadonlySet<IntentStatus> = new Set<IntentStatus>(['settled', 'rejected', 'blocked', 'failed', 'expired', 'cancelled']);

export function isTerminalStatus(status: IntentStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export interface StepRecord {
  step: PaymentStep;
  status: StepStatus;
  at: string;
  detail?: string | null;
}

export interface FlowProgress {
  status: IntentStatus;
  currentStep: PaymentStep | null;
  steps: readonly StepRecord[];
}

export interface WebhookDeliveryLike {
  status: string;
}

/** What the drawing reads of the signature an x402 payment's paid request carried. */
export interface RequestSignatureLike {
  host: string;
  signed_at: string;
}

export interface FlowStepsInput {
  /** The latest message of realtime.intentProgress; null until the first arrives. */
  progress: FlowProgress | null;
  /** The intent's status as the detail last read it; the progress's own status wins when present. */
  intentStatus: IntentStatus;
  /** The owner's decision, when the payment waited for one (the intent's approval). */
  approvalStatus: 'pending' | 'approved' | 'rejected' | 'expired' | null;
  webhookDeliveries: readonly WebhookDeliveryLike[];
  /** The step records of the workflow's audit entry, used while the progress has none. */
  auditedSteps?: readonly StepRecord[] | null;
  /**
   * An x402 payment's paid request: the signature it carried, null while none is recorded.
   * Absent for a rail that sends no HTTP request: the identity node is not drawn.
   */
  paidRequest?: { signature: RequestSignatureLike | null } | null;
  /** A paid call's wire protocol (the intent's); null or absent for other payments. */
  protocol?: PaymentProtocol | null;
}

export interface FlowStep {
  id: FlowNodeId;
  title: string;
  state: FlowNodeState;
  /** One short line under the title: the state in words. */
  caption: string;
  /** The last record's detail (or what the node sums up), null when there is nothing to add. */
  detail: string | null;
  /** When the step last changed; null when it never ran. */
  at: string | null;
  /** Every record of the step, oldest first (more than one when it ran in several rounds). */
  history: readonly StepRecord[];
  /** The step the workflow is on now. */
  current: boolean;
}

interface Implied {
  state: FlowNodeState;
  detail?: string;
}

/** What the intent's status says of each step, whatever the records (see the rules above). */
function impliedByStatus(status: IntentStatus, approvalStatus: FlowStepsInput['approvalStatus']): Partial<Record<PaymentStep, Implied>> {
  const through = (steps: readonly PaymentStep[]) => Object.fromEntries(steps.map((step) => [step, { state: 'completed' } as Implied]));
  const approval: Implied | undefined =
    approvalStatus === 'approved' ? { state: 'completed', detail: 'approved by the owner' } : approvalStatus === null ? { state: 'skipped', detail: 'not required' } : undefined;
  switch (status) {
    case 'pending_approval':
      return { ...through(['intent.created', 'policy_gate']), approval: { state: 'running' } };
    case 'approved':
      return { ...through(['intent.created', 'policy_gate']), ...(approval && { approval }) };
    case 'processing':
      return { ...through(['intent.created', 'policy_gate', 'intent.approved', 'rail_selection', 'reserve']), ...(approval && { approval }) };
    case 'settled':
      return {
        ...through(['intent.created', 'policy_gate', 'intent.approved', 'rail_selection', 'reserve', 'execute', 'capture', 'settlement.completed', 'audit']),
        ...(approval && { approval }),
        release: { state: 'skipped', detail: 'not needed' },
      };
    case 'blocked':
      return { ...through(['intent.created']), policy_gate: { state: 'failed', detail: 'denied by policy' } };
    case 'rejected':
      return { ...through(['intent.created', 'policy_gate']), approval: { state: 'skipped', detail: 'approval rejected' } };
    case 'expired':
      return { ...through(['intent.created', 'policy_gate']), approval: { state: 'failed', detail: 'approval expired' } };
    default:
      return {};
  }
}

function caption(id: FlowNodeId, state: FlowNodeState, status: IntentStatus): string {
  if (id === 'approval' && state === 'running') return 'Waiting for the owner';
  if (id === 'approval' && state === 'skipped' && status === 'rejected') return 'Rejected';
  return STATE_LABELS[state];
}

/** The webhook node: delivered, pending, failed or none, from the intent's deliveries. */
export function webhookState(deliveries: readonly WebhookDeliveryLike[], ended: boolean): { state: FlowNodeState; caption: string; detail: string | null } {
  const count = (status: string) => deliveries.filter((delivery) => delivery.status === status).length;
  const failed = count('failed');
  const pending = count('pending');
  const delivered = count('succeeded');
  const total = deliveries.length;
  if (total === 0) {
    return ended ? { state: 'skipped', caption: 'None', detail: 'No webhook endpoint was subscribed to this payment’s events' } : { state: 'waiting', caption: 'Waiting', detail: null };
  }
  const summary = [delivered && `${delivered} delivered`, pending && `${pending} pending`, failed && `${failed} failed`].filter(Boolean).join(', ');
  if (failed > 0) return { state: 'failed', caption: `${failed} failed`, detail: summary };
  if (pending > 0) return { state: 'running', caption: `${pending} pending`, detail: summary };
  return { state: 'completed', caption: `${delivered} delivered`, detail: summary };
}

/**
 * The identity node: signed once a signature is recorded. Without one, the request went out
 * unsigned once the rail has answered (execute done or failed); before that it is still to come,
 * and a payment that ended earlier never sent it.
 */
export function identityState(
  paidRequest: NonNullable<FlowStepsInput['paidRequest']>,
  execute: FlowNodeState,
  ended: boolean,
): Pick<FlowStep, 'state' | 'caption' | 'detail' | 'at'> {
  const { signature } = paidRequest;
  if (signature) return { state: 'completed', caption: 'Signed', detail: signature.host, at: signature.signed_at };
  if (execute === 'completed' || execute === 'failed') return { state: 'skipped', caption: 'Unsigned', detail: null, at: null };
  return ended ? { state: 'skipped', caption: STATE_LABELS.skipped, detail: 'not reached', at: null } : { state: 'waiting', caption: STATE_LABELS.waiting, detail: null, at: null };
}

/** Every node of the drawing with its state, in FLOW_NODE_IDS order (identity only for a paid request). */
export function mapFlowSteps(input: FlowStepsInput): FlowStep[] {
  const status = input.progress?.status ?? input.intentStatus;
  const ended = isTerminalStatus(status);
  const records = input.progress && input.progress.steps.length > 0 ? input.progress.steps : (input.auditedSteps ?? []);
  const currentStep = input.progress && !ended ? input.progress.currentStep : null;

  const history = new Map<PaymentStep, StepRecord[]>();
  for (const record of records) history.set(record.step, [...(history.get(record.step) ?? []), record]);
  const implied = impliedByStatus(status, input.approvalStatus);

  const drawn = FLOW_NODE_IDS.filter((id): id is Exclude<FlowNodeId, 'identity'> => id !== 'identity');
  const steps = drawn.map((id): FlowStep => {
    const title = id === 'rail_selection' && input.protocol === 'mpp' ? `${FLOW_NODE_TITLES[id]} · MPP` : FLOW_NODE_TITLES[id];
    if (id === 'webhooks') {
      const webhooks = webhookState(input.webhookDeliveries, ended);
      return { id, title, ...webhooks, at: null, history: [], current: false };
    }
    const own = history.get(id) ?? [];
    const last = own[own.length - 1];
    let state: FlowNodeState = last?.status ?? 'waiting';
    let detail = last?.detail ?? null;
    const floor = implied[id];
    if (floor && (state === 'waiting' || (state === 'running' && floor.state !== 'skipped'))) {
      // A running step the status already shows done (or failed) is done: the record lags.
      if (floor.state !== state) {
        state = floor.state;
        detail = last?.detail ?? floor.detail ?? null;
      }
    }
    if (state === 'waiting' && ended) {
      state = 'skipped';
      detail = 'not reached';
    }
    // A step still marked running after the payment ended was cut short.
    if (state === 'running' && ended) state = 'skipped';
    return { id, title, state, caption: caption(id, state, status), detail, at: last?.at ?? null, history: own, current: id === currentStep && state === 'running' };
  });
  if (!input.paidRequest) return steps;
  const executeAt = steps.findIndex((step) => step.id === 'execute');
  const identity: FlowStep = { id: 'identity', title: FLOW_NODE_TITLES.identity, ...identityState(input.paidRequest, steps[executeAt]!.state, ended), history: [], current: false };
  return [...steps.slice(0, executeAt), identity, ...steps.slice(executeAt)];
}

/** The line under a node's name: its state, and its detail unless that only says the same. */
export function nodeLine(step: Pick<FlowStep, 'id' | 'caption' | 'detail'>): string {
  if (!step.detail || step.id === 'webhooks') return step.caption;
  return step.detail.toLowerCase().includes(step.caption.toLowerCase()) ? step.caption : `${step.caption} · ${step.detail}`;
}

/** The node shown in the panel when the owner has picked none: where the payment stands. */
export function defaultSelectedStep(steps: readonly FlowStep[]): FlowNodeId {
  const current = steps.find((step) => step.current) ?? steps.find((step) => step.state === 'running' && step.id !== 'webhooks');
  if (current) return current.id;
  const failed = steps.find((step) => step.state === 'failed' && step.id !== 'webhooks');
  if (failed) return failed.id;
  const done = steps.filter((step) => step.state === 'completed' && step.id !== 'webhooks' && step.id !== 'audit');
  return done[done.length - 1]?.id ?? 'intent.created';
}

/** The workflow's step records kept in its audit entry (payment_intent.workflow_completed). */
export function stepsFromAudit(entries: readonly { action: string; data: unknown }[]): StepRecord[] | null {
  const entry = entries.find((candidate) => candidate.action === 'payment_intent.workflow_completed');
  const steps = (entry?.data as { steps?: unknown } | undefined)?.steps;
  if (!Array.isArray(steps)) return null;
  return steps.filter(isStepRecord).map((record) => ({ step: record.step, status: record.status, at: record.at, detail: record.detail ?? null }));
}

const STEP_IDS: ReadonlySet<string> = new Set(FLOW_NODE_IDS.filter((id) => id !== 'webhooks' && id !== 'identity'));
const STEP_STATUSES: ReadonlySet<string> = new Set(['running', 'completed', 'failed', 'skipped']);

function isStepRecord(value: unknown): value is StepRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.step === 'string' && STEP_IDS.has(record.step) && typeof record.status === 'string' && STEP_STATUSES.has(record.status) && typeof record.at === 'string';
}
