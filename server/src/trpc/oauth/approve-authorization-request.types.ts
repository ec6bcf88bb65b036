import { approveOAuthRequestInput, oauthDecisionView } from '@purser/core';

export const approveAuthorizationRequestInput = approveOAuthRequestInput;
export const approveAuthorizationRequestOutput = oauthDecisionView;
