// The consent form as it first renders (server-side rendering, no DOM needed): what the owner
// sees of the client, the scopes offered and ticked, the agent preselected, and the buttons'
// states. Its choices -> oauth.approve's input are tested in utils/consent-form.test.ts.
import type { OAuthAuthorizationRequestView } from '@purser/core';
import { OAUTH_SCOPE_DESCRIPTIONS } from '@purser/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConsentForm, type ConsentFormProps } from './consent-form';

const AGENT = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

const REQUEST: OAuthAuthorizationRequestView = {
  requestId: 'req-123',
  status: 'pending',
  client: { id: 'https://tools.example.com/oauth/client.json', name: 'Example Assistant', uri: 'https://tools.example.com' },
  redirectUri: 'https://tools.example.com/oauth/callback?tab=1',
  scopes: ['read', 'pay'],
  resource: 'https://purser.example.com/functions/v1/mcp-server/mcp',
  expiresAt: '2026-12-06T12:10:00.000Z',
};

function render(overrides: Partial<ConsentFormProps> = {}): { html: string; text: string } {
  const html = renderToStaticMarkup(
    <ConsentForm request={REQUEST} agents={[{ id: AGENT, name: 'Shopping bot', status: 'active' }]} busy={null} error={null} onApprove={() => {}} onDeny={() => {}} onCreateAgent={() => {}} {...overrides} />,
  );
  // Text without tags, for sentences that span elements.
  const text = html.replace(/<style[^>]*>.*?<\/style>/gs, '').replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');
  return { html, text };
}

/** The checkbox inputs in the markup: [name of the scope it describes, checked]. */
function checkboxes(html: string): Array<[string, boolean]> {
  return [...html.matchAll(/<input[^>]*type="checkbox"[^>]*>/g)].map(([tag]) => [/aria-describedby="consent-scope-(\w+)-description"/.exec(tag)?.[1] ?? '', / checked=""/.test(tag)]);
}

describe('ConsentForm', () => {
  it('names the client, shows the host it returns to on its own line, the full redirect, its client id and the resource', () => {
    const { html, text } = render();
    expect(text).toContain('Example Assistant wants to use one of your agents');
    expect(html).toMatch(/data-testid="consent-redirect-host"[^>]*>tools\.example\.com</);
    expect(text).toContain('https://tools.example.com/oauth/callback?tab=1');
    expect(text).toContain('Client ID https://tools.example.com/oauth/client.json');
    expect(text).toContain('Works on https://purser.example.com/functions/v1/mcp-server/mcp');
    expect(text).toContain('Purser does not check the name "Example Assistant". Continue only if you know tools.example.com.');
  });

  it('calls an app on this computer that, and a client without a name an unnamed application', () => {
    const { text } = render({ request: { ...REQUEST, client: { id: 'c1', name: null, uri: null }, redirectUri: 'http://127.0.0.1:33418/callback' } });
    expect(text).toContain('An unnamed application wants to use one of your agents');
    expect(text).toContain('127.0.0.1:33418');
    expect(text).toContain('An app on this computer. Continue only if you just started connecting it.');
    expect(text).not.toContain('Website');
  });

  it('offers only the requested scopes, each with its description, all ticked', () => {
    const { html, text } = render();
    expect(checkboxes(html)).toEqual([
      ['read', true],
      ['pay', true],
    ]);
    expect(text).toContain(OAUTH_SCOPE_DESCRIPTIONS.read);
    expect(text).toContain(OAUTH_SCOPE_DESCRIPTIONS.pay);
    expect(text).not.toContain(OAUTH_SCOPE_DESCRIPTIONS.fetch);
  });

  it('preselects the only active agent, and asks for a choice when there are several', () => {
    expect(render().text).toContain('Shopping bot');
    const several = render({ agents: [{ id: AGENT, name: 'Shopping bot', status: 'active' }, { id: '7a1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', name: 'Research bot', status: 'active' }] });
    expect(several.text).not.toContain('Shopping bot');
    expect(several.text).not.toContain('Research bot');
    expect(render({ agents: [] }).text).toContain('You have no agents yet: create one.');
  });

  it('starts with no cap and no expiry, and offers a new agent, Deny and Approve', () => {
    const { html, text } = render();
    expect(html).toMatch(/<input[^>]*id="consent-cap"[^>]*value=""/);
    expect(text).toContain('Connection expires Never');
    expect(html).toMatch(/<button[^>]*type="button"[^>]*>(?:(?!<\/button>).)*New agent/s);
    expect(html).toMatch(/<button[^>]*type="button"[^>]*>Deny<\/button>/);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Approve<\/button>/);
  });

  it('locks every control while a decision is on its way, and shows the server’s refusal', () => {
    const { html, text } = render({ busy: 'approve', error: 'This authorization request was already approved' });
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*disabled=""[^>]*>Approving\.\.\.<\/button>/);
    expect(html).toMatch(/<button[^>]*type="button"[^>]*disabled=""[^>]*>Deny<\/button>/);
    expect(checkboxes(html)).toHaveLength(2);
    expect([...html.matchAll(/<input[^>]*type="checkbox"[^>]*>/g)].every(([tag]) => / disabled=""/.test(tag))).toBe(true);
    expect(html).toMatch(/role="alert"/);
    expect(text).toContain('This authorization request was already approved');
    expect(render({ busy: 'deny' }).html).toMatch(/>Denying\.\.\.<\/button>/);
  });
});
