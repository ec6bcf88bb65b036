/**
 * The token status list of agent credentials (IETF draft "Token Status List"), as a signed
 * `statuslist+jwt`. One bit per index: 0 VALID only for the current index of an active agent;
 * 1 INVALID for suspended and deleted agents, for indexes a re-issued credential left behind
 * and for indexes never handed out. Built from the agents table on each request, so a
 * suspension shows the next time a verifier fetches the list (at most `ttl` seconds late).
 */
import { Jwt } from '@sd-jwt/core';
import { createHeaderAndPayload, StatusList, type StatusListJWTHeaderParameters } from '@sd-jwt/jwt-status-list';
import type { TransactionClient } from '@purser/db';
import { agentStatusListUri, getPlatformIssuer, ISSUER_ALG, type IssuerDeps } from './platform-issuer';

export const STATUS_VALID = 0;
export const STATUS_INVALID = 1;
/** How long verifiers may cache the list (seconds); short so a suspension takes effect quickly. */
export const STATUS_LIST_TTL_SECONDS = 60;
export const STATUS_LIST_LIFETIME_SECONDS = 24 * 60 * 60;
/** A floor on the list's length, so a small deployment does not reveal how few agents it has. */
export const STATUS_LIST_MIN_LENGTH = 16_384;
export const STATUS_LIST_MEDIA_TYPE = 'application/statuslist+jwt';

export type StatusListDeps = IssuerDeps & { prisma: TransactionClient };

/** Statuses by index, for tests and for the verifier inside the server. */
export async function readAgentStatuses(prisma: TransactionClient): Promise<StatusList> {
  const [{ _max }, active] = await Promise.all([
    prisma.agent.aggregate({ _max: { credentialStatusIndex: true } }),
    prisma.agent.findMany({ where: { status: 'active' }, select: { credentialStatusIndex: true } }),
  ]);
  const highest = _max.credentialStatusIndex ?? 0;
  const length = Math.max(STATUS_LIST_MIN_LENGTH, Math.ceil((highest + 1) / 8) * 8);
  const statuses = new Array<number>(length).fill(STATUS_INVALID);
  for (const agent of active) statuses[agent.credentialStatusIndex] = STATUS_VALID;
  return new StatusList(statuses, 1);
}

export async function buildAgentStatusList(deps: StatusListDeps, now = new Date()): Promise<string> {
  const issuer = await getPlatformIssuer(deps);
  const list = await readAgentStatuses(deps.prisma);
  const iat = Math.floor(now.getTime() / 1000);
  const header: StatusListJWTHeaderParameters = { alg: ISSUER_ALG, typ: 'statuslist+jwt', kid: issuer.kid };
  const built = createHeaderAndPayload(
    list,
    { iss: issuer.issuer, sub: agentStatusListUri(deps.publicUrl), iat, exp: iat + STATUS_LIST_LIFETIME_SECONDS, ttl: STATUS_LIST_TTL_SECONDS },
    header,
  );
  return new Jwt({ header: built.header, payload: built.payload }).sign(issuer.sign);
}
