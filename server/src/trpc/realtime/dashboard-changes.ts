import { ownerProcedure } from '../init';
import { ownerEvents } from './owner-events';
import type { DashboardChangeMessage } from './dashboard-changes.types';

/**
 * Everything the dashboard shows, on one stream: a browser allows six HTTP/1.1 connections per
 * host, so a stream per list would let two open dashboards stall every other request.
 */
export const dashboardChanges = ownerProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<DashboardChangeMessage, void> {
  for await (const message of ownerEvents(ctx, ['wallet', 'agents', 'transactions'], signal)) {
    yield message.type === 'sync' ? message : { type: 'changed', what: message.event.topic };
  }
});
