import { oauthAuthorizationRequestView, oauthRequestIdInput } from '@purser/core';

export const getAuthorizationRequestInput = oauthRequestIdInput;
export const getAuthorizationRequestOutput = oauthAuthorizationRequestView;
