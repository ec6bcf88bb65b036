import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkConfirmationToken, confirmationLine, CONFIRMATION_TTL_MS, issueConfirmationToken, tokenInMessage, withoutTokens } from './confirmation-token';

const masterKey = randomBytes(32);
const ownerId = randomUUID();
const proposal = { ownerId, action: 'fund_agent' as const, args: { agent_id: randomUUID(), amount: '25', currency: 'USDC' } };

describe('confirmation tokens', () => {
  it('give back the action, its arguments and a nonce to the owner they were issued to', async () => {
    const check = await checkConfirmationToken(masterKey, await issueConfirmationToken(masterKey, proposal), ownerId);
    expect(check).toEqual({ ok: true, action: { ...proposal, nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) } });
  });

  it('carry a fresh nonce each time, so two proposals of the same action are two actions', async () => {
    const first = await checkConfirmationToken(masterKey, await issueConfirmationToken(masterKey, proposal), ownerId);
    const second = await checkConfirmationToken(masterKey, await issueConfirmationToken(masterKey, proposal), ownerId);
    expect(first.ok && second.ok && first.action.nonce !== second.action.nonce).toBe(true);
  });

  it('are refused when the payload or the signature is altered, or another key signed them', async () => {
    const token = await issueConfirmationToken(masterKey, proposal);
    const [prefix, body, signature] = token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: { amount: string } };
    payload.p.amount = '2500';
    const altered = `${prefix}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    const flipped = `${prefix}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const forged of [altered, flipped, await issueConfirmationToken(randomBytes(32), proposal), `pa2.${body}.${signature}`, 'pa1.x.y', '']) {
      expect(await checkConfirmationToken(masterKey, forged, ownerId), forged).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('are refused to another owner and once expired', async () => {
    const token = await issueConfirmationToken(masterKey, proposal);
    expect(await checkConfirmationToken(masterKey, token, randomUUID())).toEqual({ ok: false, reason: 'other_owner' });
    const issuedAt = new Date(Date.now() - CONFIRMATION_TTL_MS - 1);
    expect(await checkConfirmationToken(masterKey, await issueConfirmationToken(masterKey, proposal, issuedAt), ownerId)).toEqual({ ok: false, reason: 'expired' });
  });

  it('are found in the proposal that carries them and withheld from the history a model sees', async () => {
    const token = await issueConfirmationToken(masterKey, proposal);
    const message = `Please confirm.\n\n${confirmationLine(token)}`;
    expect(tokenInMessage(message)).toBe(token);
    expect(withoutTokens(message)).toBe('Please confirm.\n\nConfirmation: (code withheld)');
    expect(tokenInMessage('No proposal here')).toBeUndefined();
  });
});
