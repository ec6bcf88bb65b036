// Activities: the only place workflows reach I/O. They come from a factory that takes their
// dependencies, so tests and the product hand in real (or stub) pieces. The payment and
// webhook steps are implemented by the server's services and handed in here, so this
// workspace never imports the server.
import { createHealthActivities, type ActivityDatabase } from './health';

export type { ActivityDatabase, DatabaseHealth } from './health';

export interface ActivityDependencies {
  db: ActivityDatabase;
}

export function createActivities({ db }: ActivityDependencies) {
  return {
    ...createHealthActivities(db),
  };
}

export type Activities = ReturnType<typeof createActivities>;
