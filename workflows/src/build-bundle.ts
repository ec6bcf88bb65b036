// `npm run build -w @purser/workflows`: bundles the workflow code once, so workers start
// without running webpack (see createPaymentsWorker).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_PATH, WORKFLOWS_PATH } from './worker';

const started = Date.now();
const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH });
mkdirSync(dirname(WORKFLOW_BUNDLE_PATH), { recursive: true });
writeFileSync(WORKFLOW_BUNDLE_PATH, code);
console.error(`wrote ${WORKFLOW_BUNDLE_PATH} (${(code.length / 1024).toFixed(0)} KiB) in ${Date.now() - started} ms`);
