// `npm run build -w @purser/workflows`: bundles the workflow code once, untraced and traced,
// so workers start without running webpack (see createPaymentsWorker).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { TRACED_WORKFLOW_BUNDLE, WORKFLOW_BUNDLE, WORKFLOWS_PATH } from './worker';

for (const { codePath, workflowInterceptorModules } of [WORKFLOW_BUNDLE, TRACED_WORKFLOW_BUNDLE]) {
  const started = Date.now();
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules });
  mkdirSync(dirname(codePath), { recursive: true });
  writeFileSync(codePath, code);
  console.error(`wrote ${codePath} (${(code.length / 1024).toFixed(0)} KiB) in ${Date.now() - started} ms`);
}
