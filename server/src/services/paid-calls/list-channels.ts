/** /x402/channels: the agent's channels, newest first. */
import type { X402ChannelView } from '@purser/core';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import type { X402Deps } from './front/x402-deps';
import { channelView, readChannels } from './schemes/batch-settlement/channel-view';

export async function listX402Channels(deps: Pick<X402Deps, 'db'>, agent: AuthenticatedAgent): Promise<{ channels: X402ChannelView[] }> {
  return { channels: (await readChannels(deps.db.prisma, agent.agentId)).map(channelView) };
}
