import type { Database } from '@purser/db';
import type { Logger } from '../logger';
import type { HealthChecker } from '../health';

/** What every procedure can reach. Owner and agent identity join it with the accounts issue. */
export interface AppDeps {
  db: Database;
  logger: Logger;
  health: HealthChecker;
}

export interface Context extends AppDeps {
  requestId: string;
}
