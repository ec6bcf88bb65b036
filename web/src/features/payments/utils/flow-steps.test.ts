import { describe, expect, it } from 'vitest';
import { defaultSelectedStep, FLOW_NODE_IDS, mapFlowSteps, nodeLine, stepsFromAudit, webhookState, type FlowStepsInput, type StepRecord } from './flow-steps';

const AT = '2026-11-26T10:00:00.000Z';
const rec = (step: StepRecord['step'], status: StepRecord['status'], detail?: string): StepRecord => ({ step, status, at: AT, ...(detail && { detail }) });

function states(input: Partial<FlowStepsInput> & Pick<FlowStepsInput, 'progress'>) {
  const steps = mapFlowSteps({ intentStatus: input.progress?.status ?? 'created', approvalStatus: null, webhookDeliveries: [], ...input });
  return Object.fromEntries(steps.map((step) => [step.id, step.state]));
}

const SETTLED_ONE_STEP: StepRecord[] = [
  rec('intent.created', 'completed'),
  rec('policy_gate', 'completed', 'allow'),
  rec('approval', 'skipped', 'not required'),
  rec('intent.approved', 'completed'),
  rec('rail_selection', 'completed', 'ledger'),
  rec('reserve', 'completed'),
  rec('execute', 'completed', 'ledger:abc'),
  rec('capture', 'completed'),
  rec('release', 'skipped', 'not needed'),
  rec('settlement.completed', 'completed'),
  rec('audit', 'completed'),
];

describe('mapFlowSteps', () => {
  it('lists every node in the workflow’s order, webhooks last, identity only for a paid request', () => {
    const ledger = mapFlowSteps({ progress: null, intentStatus: 'created', approvalStatus: null, webhookDeliveries: [] });
    expect(ledger.map((step) => step.id)).toEqual(FLOW_NODE_IDS.filter((id) => id !== 'identity'));
    expect(ledger.every((step) => step.state === 'waiting')).toBe(true);
    const x402 = mapFlowSteps({ progress: null, intentStatus: 'created', approvalStatus: null, webhookDeliveries: [], paidRequest: { signature: null } });
    expect(x402.map((step) => step.id)).toEqual([...FLOW_NODE_IDS]);
    expect(x402.every((step) => step.state === 'waiting')).toBe(true);
  });

  it('shows an x402 payment’s paid request signed once its signature is recorded, with the host and when', () => {
    const signature = { host: 'seller.example', signed_at: '2026-11-26T10:00:02.000Z' };
    const steps = mapFlowSteps({ progress: { status: 'settled', currentStep: null, steps: SETTLED_ONE_STEP }, intentStatus: 'settled', approvalStatus: null, webhookDeliveries: [], paidRequest: { signature } });
    const identity = steps.find((step) => step.id === 'identity');
    expect(identity).toMatchObject({ title: 'Identity', state: 'completed', caption: 'Signed', detail: 'seller.example', at: signature.signed_at, current: false });
    expect(nodeLine(identity!)).toBe('Signed · seller.example');
    expect(steps.map((step) => step.id).slice(5, 8)).toEqual(['reserve', 'identity', 'execute']);
  });

  it('shows an x402 paid request unsigned only once the rail has answered, waiting before, not reached when the payment ended first', () => {
    const identity = (input: Pick<FlowStepsInput, 'progress'> & Partial<FlowStepsInput>) =>
      mapFlowSteps({ intentStatus: input.progress?.status ?? 'created', approvalStatus: null, webhookDeliveries: [], paidRequest: { signature: null }, ...input }).find((step) => step.id === 'identity');
    expect(identity({ progress: { status: 'settled', currentStep: null, steps: SETTLED_ONE_STEP } })).toMatchObject({ state: 'skipped', caption: 'Unsigned', detail: null });
    const failedOnRail = [...SETTLED_ONE_STEP.slice(0, 6), rec('execute', 'failed', 'seller refused')];
    expect(identity({ progress: { status: 'failed', currentStep: null, steps: failedOnRail } })).toMatchObject({ state: 'skipped', caption: 'Unsigned' });
    const onRail = [...SETTLED_ONE_STEP.slice(0, 6), rec('execute', 'running')];
    expect(identity({ progress: { status: 'processing', currentStep: 'execute', steps: onRail } })).toMatchObject({ state: 'waiting', caption: 'Waiting' });
    const blocked = [rec('intent.created', 'completed'), rec('policy_gate', 'failed', 'deny: PER_TRANSACTION_LIMIT')];
    expect(identity({ progress: { status: 'blocked', currentStep: null, steps: blocked } })).toMatchObject({ state: 'skipped', detail: 'not reached' });
  });

  it('titles the rail of a paid call made over MPP with MPP, and leaves an x402 payment’s rail as the workflow named it', () => {
    const paid = SETTLED_ONE_STEP.map((record) => (record.step === 'rail_selection' ? rec('rail_selection', 'completed', 'x402-base') : record));
    const rail = (protocol: FlowStepsInput['protocol']) =>
      mapFlowSteps({ progress: { status: 'settled', currentStep: null, steps: paid }, intentStatus: 'settled', approvalStatus: null, webhookDeliveries: [], paidRequest: { signature: null }, protocol }).find(
        (step) => step.id === 'rail_selection',
      )!;
    expect(rail('mpp')).toMatchObject({ title: 'Rail · MPP', detail: 'x402-base' });
    for (const protocol of ['x402', null] as const) expect(rail(protocol)).toMatchObject({ title: 'Rail', detail: 'x402-base' });
    expect(nodeLine(rail('mpp'))).toBe('Completed · x402-base');
  });

  it('shows a settled payment completed, with approval and release skipped', () => {
    const map = states({ progress: { status: 'settled', currentStep: null, steps: SETTLED_ONE_STEP }, webhookDeliveries: [{ status: 'succeeded' }] });
    expect(map).toEqual({
      'intent.created': 'completed',
      policy_gate: 'completed',
      approval: 'skipped',
      'intent.approved': 'completed',
      rail_selection: 'completed',
      reserve: 'completed',
      execute: 'completed',
      capture: 'completed',
      release: 'skipped',
      'settlement.completed': 'completed',
      audit: 'completed',
      webhooks: 'completed',
    });
  });

  it('lights the current step and says the approval waits for the owner', () => {
    const steps = mapFlowSteps({
      progress: {
        status: 'pending_approval',
        currentStep: 'approval',
        steps: [rec('intent.created', 'completed'), rec('policy_gate', 'completed', 'require_approval: APPROVAL_THRESHOLD'), rec('approval', 'running')],
      },
      intentStatus: 'pending_approval',
      approvalStatus: 'pending',
      webhookDeliveries: [],
    });
    const approval = steps.find((step) => step.id === 'approval')!;
    expect(approval).toMatchObject({ state: 'running', caption: 'Waiting for the owner', current: true });
    expect(steps.find((step) => step.id === 'policy_gate')?.detail).toBe('require_approval: APPROVAL_THRESHOLD');
    expect(steps.filter((step) => step.state === 'waiting').map((step) => step.id)).toEqual([
      'intent.approved',
      'rail_selection',
      'reserve',
      'execute',
      'capture',
      'release',
      'settlement.completed',
      'audit',
      'webhooks',
    ]);
  });

  it('keeps the last record of a step that ran in several rounds, and all of them as its history', () => {
    const steps = mapFlowSteps({
      progress: {
        status: 'processing',
        currentStep: 'execute',
        steps: [
          rec('intent.created', 'completed'),
          rec('policy_gate', 'completed', 'allow'),
          rec('approval', 'skipped', 'not required'),
          rec('intent.approved', 'completed'),
          rec('rail_selection', 'completed', 'ledger'),
          rec('reserve', 'skipped', 'limits changed: the owner must approve this payment'),
          rec('policy_gate', 'completed', 'require_approval: APPROVAL_THRESHOLD'),
          rec('approval', 'completed', 'approved by the owner'),
          rec('intent.approved', 'completed'),
          rec('rail_selection', 'completed', 'ledger'),
          rec('reserve', 'completed'),
          rec('execute', 'running'),
        ],
      },
      intentStatus: 'processing',
      approvalStatus: 'approved',
      webhookDeliveries: [],
    });
    const byId = Object.fromEntries(steps.map((step) => [step.id, step]));
    expect(byId.reserve).toMatchObject({ state: 'completed', detail: null });
    expect(byId.reserve!.history).toHaveLength(2);
    expect(byId.approval).toMatchObject({ state: 'completed', detail: 'approved by the owner' });
    expect(byId.policy_gate).toMatchObject({ state: 'completed', detail: 'require_approval: APPROVAL_THRESHOLD' });
    expect(byId.execute).toMatchObject({ state: 'running', current: true });
    expect(byId.capture!.state).toBe('waiting');
  });

  it('shows a failed payment released, capture skipped, settlement never reached', () => {
    const map = states({
      progress: {
        status: 'failed',
        currentStep: null,
        steps: [
          ...SETTLED_ONE_STEP.slice(0, 6),
          rec('execute', 'failed', 'Card declined'),
          rec('release', 'completed', 'held funds returned to the agent'),
          rec('capture', 'skipped', 'payment failed'),
          rec('audit', 'completed'),
        ],
      },
    });
    expect(map).toMatchObject({ execute: 'failed', release: 'completed', capture: 'skipped', 'settlement.completed': 'skipped', audit: 'completed' });
  });

  it('shows a blocked payment failed at the gate, its last gate record winning, the rest not reached', () => {
    const steps = mapFlowSteps({
      progress: {
        status: 'blocked',
        currentStep: null,
        steps: [
          rec('intent.created', 'completed'),
          rec('policy_gate', 'failed', 'deny: PER_TRANSACTION_LIMIT'),
          rec('policy_gate', 'failed', 'policy.violation emitted'),
          rec('audit', 'completed'),
        ],
      },
      intentStatus: 'blocked',
      approvalStatus: null,
      webhookDeliveries: [],
    });
    const gate = steps.find((step) => step.id === 'policy_gate')!;
    expect(gate).toMatchObject({ state: 'failed', detail: 'policy.violation emitted' });
    expect(gate.history.map((record) => record.detail)).toEqual(['deny: PER_TRANSACTION_LIMIT', 'policy.violation emitted']);
    const notReached = steps.filter((step) => step.detail === 'not reached').map((step) => step.id);
    expect(notReached).toEqual(['approval', 'intent.approved', 'rail_selection', 'reserve', 'execute', 'capture', 'release', 'settlement.completed']);
    expect(steps.find((step) => step.id === 'webhooks')).toMatchObject({ state: 'skipped', caption: 'None' });
  });

  it('shows a rejected approval as skipped, captioned rejected', () => {
    const steps = mapFlowSteps({
      progress: {
        status: 'rejected',
        currentStep: null,
        steps: [rec('intent.created', 'completed'), rec('policy_gate', 'completed'), rec('approval', 'skipped', 'approval rejected'), rec('audit', 'completed')],
      },
      intentStatus: 'rejected',
      approvalStatus: 'rejected',
      webhookDeliveries: [],
    });
    expect(steps.find((step) => step.id === 'approval')).toMatchObject({ state: 'skipped', caption: 'Rejected' });
    expect(steps.find((step) => step.id === 'capture')?.state).toBe('skipped');
  });

  it('trusts the status over a record that lags behind it', () => {
    // The settlement committed, the workflow has not reported its last steps yet.
    const map = states({
      progress: { status: 'settled', currentStep: 'capture', steps: [...SETTLED_ONE_STEP.slice(0, 7), rec('capture', 'running')] },
    });
    expect(map).toMatchObject({ capture: 'completed', release: 'skipped', 'settlement.completed': 'completed', audit: 'completed' });
  });

  it('never lets the status overrule a recorded failure or skip', () => {
    const map = states({
      progress: { status: 'pending_approval', currentStep: 'policy_gate', steps: [rec('intent.created', 'completed'), rec('approval', 'skipped', 'a policy changed; evaluating again'), rec('policy_gate', 'running')] },
      approvalStatus: 'pending',
    });
    expect(map).toMatchObject({ approval: 'skipped', policy_gate: 'completed' });
  });

  it('draws a finished payment from its audited steps when the workflow no longer answers', () => {
    const audited = stepsFromAudit([
      { action: 'payment_intent.created', data: {} },
      { action: 'payment_intent.workflow_completed', data: { status: 'settled', steps: SETTLED_ONE_STEP.map((step) => ({ ...step, detail: step.detail ?? null })) } },
    ]);
    expect(audited).toHaveLength(SETTLED_ONE_STEP.length);
    const steps = mapFlowSteps({ progress: { status: 'settled', currentStep: null, steps: [] }, intentStatus: 'settled', approvalStatus: null, webhookDeliveries: [], auditedSteps: audited });
    expect(steps.find((step) => step.id === 'rail_selection')).toMatchObject({ state: 'completed', detail: 'ledger' });
  });

  it('draws a payment from its status alone when no step record is left', () => {
    const map = states({ progress: null, intentStatus: 'settled', approvalStatus: 'approved' });
    expect(map).toMatchObject({ approval: 'completed', execute: 'completed', release: 'skipped', 'settlement.completed': 'completed' });
  });
});

describe('webhookState', () => {
  it('sums up the deliveries: failed over pending over delivered, none once the payment ended', () => {
    expect(webhookState([], false).state).toBe('waiting');
    expect(webhookState([], true)).toMatchObject({ state: 'skipped', caption: 'None' });
    expect(webhookState([{ status: 'succeeded' }, { status: 'succeeded' }], true)).toMatchObject({ state: 'completed', caption: '2 delivered' });
    expect(webhookState([{ status: 'succeeded' }, { status: 'pending' }], true)).toMatchObject({ state: 'running', caption: '1 pending', detail: '1 delivered, 1 pending' });
    expect(webhookState([{ status: 'pending' }, { status: 'failed' }], true)).toMatchObject({ state: 'failed', caption: '1 failed' });
  });
});

describe('defaultSelectedStep', () => {
  const base = { intentStatus: 'created' as const, approvalStatus: null, webhookDeliveries: [] };
  it('picks the running step, else the failed one, else the last completed', () => {
    const waiting = mapFlowSteps({ ...base, progress: { status: 'pending_approval', currentStep: 'approval', steps: [rec('intent.created', 'completed'), rec('policy_gate', 'completed'), rec('approval', 'running')] } });
    expect(defaultSelectedStep(waiting)).toBe('approval');
    const failed = mapFlowSteps({ ...base, progress: { status: 'failed', currentStep: null, steps: [...SETTLED_ONE_STEP.slice(0, 6), rec('execute', 'failed', 'declined')] } });
    expect(defaultSelectedStep(failed)).toBe('execute');
    const settled = mapFlowSteps({ ...base, progress: { status: 'settled', currentStep: null, steps: SETTLED_ONE_STEP } });
    expect(defaultSelectedStep(settled)).toBe('settlement.completed');
  });
});

describe('nodeLine', () => {
  it('adds the detail to the state unless it only restates it', () => {
    expect(nodeLine({ id: 'policy_gate', caption: 'Completed', detail: 'allow' })).toBe('Completed · allow');
    expect(nodeLine({ id: 'approval', caption: 'Rejected', detail: 'approval rejected' })).toBe('Rejected');
    expect(nodeLine({ id: 'reserve', caption: 'Completed', detail: null })).toBe('Completed');
    expect(nodeLine({ id: 'webhooks', caption: '2 delivered', detail: '2 delivered, 1 pending' })).toBe('2 delivered');
  });
});
