import { ownerProcedure } from '../init';
import { ownerEvents } from './owner-events';
import type { AgentChangeMessage } from './agent-changes.types';

const CHANGE = { INSERT: 'created', UPDATE: 'updated', DELETE: 'deleted' } as const;

/** Any change to the signed-in owner's agents: reload the agent list. */
export const agentChanges = ownerProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<AgentChangeMessage, void> {
  for await (const message of ownerEvents(ctx, ['agents'], signal)) {
    yield message.type === 'sync' ? message : { type: 'changed', agentId: message.event.agentId, change: CHANGE[message.event.op] };
  }
});
