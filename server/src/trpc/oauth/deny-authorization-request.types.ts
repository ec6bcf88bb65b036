import { oauthDecisionView, oauthRequestIdInput } from '@purser/core';

export const denyAuthorizationRequestInput = oauthRequestIdInput;
export const denyAuthorizationRequestOutput = oauthDecisionView;
