// Runs recorded by earlier versions of paymentWorkflow must replay on today's code: a worker
// that picks up a payment in flight after a deploy replays its history first, and a command
// out of place fails that payment's workflow task for good (a nondeterminism error).
// histories/ holds one run of every outcome as the version before 'one-front' recorded it
// (server/test/payment-histories.temporal.test.ts records them; histories/README.md says how).
import { readdirSync, readFileSync } from 'node:fs';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../src/index';

const HISTORIES = new URL('./histories/', import.meta.url);

interface RecordedRun {
  scenario: string;
  status: string;
  history: unknown;
}

const runs: RecordedRun[] = readdirSync(HISTORIES)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(new URL(name, HISTORIES), 'utf8')) as RecordedRun);

/** The patch markers a history carries, by name. */
function patchesOf(history: ReturnType<typeof historyFromJSON>): string[] {
  return (history.events ?? []).flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_patch' ? marker.details?.['patch-data']?.payloads?.[0]?.data : undefined;
    return data ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id] : [];
  });
}

describe('paymentWorkflow replays the runs of the version before one-front', () => {
  it('holds a run of every outcome, each taken before one-front', () => {
    expect(runs.map((run) => run.scenario)).toEqual([
      'approved',
      'blocked',
      'cancelled-waiting',
      'card-settled',
      'declined',
      'insufficient-funds',
      'no-rail',
      'policy-changed-waiting',
      'rejected',
      'settled',
      'suspended',
    ]);
    for (const run of runs) {
      const patches = patchesOf(historyFromJSON(run.history));
      expect(patches, run.scenario).toContain('authorize-in-one-step');
      expect(patches, run.scenario).not.toContain('one-front');
    }
  });

  it('replays every one of them on the code of today without a nondeterminism error', async () => {
    const histories = runs.map((run) => ({ workflowId: `replay-${run.scenario}`, history: historyFromJSON(run.history) }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
