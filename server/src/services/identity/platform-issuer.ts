/**
 * The platform's credential issuer: an Ed25519 key derived from the master key, so every
 * replica sharing MASTER_KEY signs as the same issuer and no key has to be stored. The issuer
 * identifier is the deployment's public URL; verifiers find the key at
 * /.well-known/jwt-vc-issuer (SD-JWT VC issuer metadata) and /.well-known/did.json (did:web).
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { deriveKey } from '../../secrets';
import type { AppDeps } from '../../deps';

export type IssuerDeps = Pick<AppDeps, 'masterKey' | 'publicUrl'>;

export const ISSUER_KEY_PURPOSE = 'vc-issuer-ed25519';
export const ISSUER_ALG = 'EdDSA';
export const AGENT_CREDENTIAL_PATH = '/credentials/agent';
export const AGENT_STATUS_LIST_PATH = '/statuslists/agents';
export const AGENT_API_PATH = '/functions/v1/mcp-server';

/** PKCS#8 DER header of an Ed25519 private key (RFC 8410); the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface PlatformIssuer {
  /** The issuer identifier (`iss`): the public URL without a trailing slash. */
  issuer: string;
  /** JWK thumbprint (RFC 7638) of the public key, carried as `kid` in every signed header. */
  kid: string;
  /** Public key as published: kty, crv, x, kid, alg, use. */
  publicJwk: JWK;
  publicKey: KeyObject;
  /** Signs with the issuer key; the @sd-jwt Signer contract (base64url signature). */
  sign(data: string): string;
  /** Verifies an issuer signature; the @sd-jwt Verifier contract. */
  verify(data: string, signatureBase64url: string): boolean;
}

/** The Ed25519 private key for a 32-byte seed (node:crypto parses the PKCS#8 form). */
export function ed25519PrivateKeyFromSeed(seed: Buffer): KeyObject {
  if (seed.length !== 32) throw new Error('An Ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The public URL as an identifier: no trailing slash, so `${issuer}/path` is well formed. */
export function issuerIdentifier(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

export function agentCredentialType(publicUrl: string): string {
  return `${issuerIdentifier(publicUrl)}${AGENT_CREDENTIAL_PATH}`;
}

export function agentStatusListUri(publicUrl: string): string {
  return `${issuerIdentifier(publicUrl)}${AGENT_STATUS_LIST_PATH}`;
}

/** did:web of the deployment (the port's colon percent-encoded, path segments joined by colons). */
export function platformDid(publicUrl: string): string {
  const url = new URL(issuerIdentifier(publicUrl));
  const segments = url.pathname.split('/').filter(Boolean).map(encodeURIComponent);
  return ['did:web', encodeURIComponent(url.host), ...segments].join(':');
}

interface IssuerKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: JWK;
  kid: string;
}

// Derivation is cheap but the thumbprint is async; cache per master key (replicas agree anyway).
const cache = new WeakMap<Buffer, Promise<IssuerKeys>>();

async function loadIssuerKeys(masterKey: Buffer): Promise<IssuerKeys> {
  const privateKey = ed25519PrivateKeyFromSeed(deriveKey(masterKey, ISSUER_KEY_PURPOSE));
  const publicKey = createPublicKey(privateKey);
  const { kty, crv, x } = publicKey.export({ format: 'jwk' });
  const bare: JWK = { kty, crv, x };
  const kid = await calculateJwkThumbprint(bare, 'sha256');
  return { privateKey, publicKey, kid, publicJwk: { ...bare, kid, alg: ISSUER_ALG, use: 'sig' } };
}

export async function getPlatformIssuer(deps: IssuerDeps): Promise<PlatformIssuer> {
  let keys = cache.get(deps.masterKey);
  if (!keys) {
    keys = loadIssuerKeys(deps.masterKey);
    cache.set(deps.masterKey, keys);
  }
  const { privateKey, publicKey, publicJwk, kid } = await keys;
  return {
    issuer: issuerIdentifier(deps.publicUrl),
    kid,
    publicJwk,
    publicKey,
    sign: (data) => sign(null, Buffer.from(data), privateKey).toString('base64url'),
    verify: (data, signature) => verify(null, Buffer.from(data), publicKey, Buffer.from(signature, 'base64url')),
  };
}
