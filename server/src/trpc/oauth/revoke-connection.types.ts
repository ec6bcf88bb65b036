import { oauthConnectionIdInput, oauthConnectionView } from '@purser/core';

export const revokeConnectionInput = oauthConnectionIdInput;
export const revokeConnectionOutput = oauthConnectionView;
