// `node scripts/temporal-cli.mjs`: prints the Temporal CLI's absolute path alone on stdout,
// providing the binary first when needed; progress goes to stderr.
//
// The finder itself lives with the dev server it feeds, in workflows/src/temporal-cli.mjs
// (the product's runtime and the bench take it from @purser/workflows). It is re-exported here
// for scripts and test support, which may use the repository's tool installers by path.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureTemporalCli } from '../workflows/src/temporal-cli.mjs';

export { ensureTemporalCli, TEMPORAL_CLI_VERSION, temporalCliCacheRoot } from '../workflows/src/temporal-cli.mjs';

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureTemporalCli().then(
    (path) => process.stdout.write(`${path}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
      process.exitCode = 1;
    },
  );
}
