// Lets a benchmark module be both a library the runner (run.ts) calls and a script of its own.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evaluate, formatDetails, formatTable, type Measurement } from './report';

/** True when the module at `moduleUrl` is the script node (or tsx) was asked to run. */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** A standalone benchmark's figures, in the same table `npm run bench` prints. */
export function printMeasurements(measurements: Measurement[]): void {
  const rows = measurements.map(evaluate);
  process.stdout.write(`${formatTable(rows)}\n\n${formatDetails(rows)}\n`);
}

export function requirePostgres(): void {
  if (process.env.PURSER_TEST_DB !== 'postgres') throw new Error('Run with PURSER_TEST_DB=postgres: the benchmarks measure PostgreSQL');
}
