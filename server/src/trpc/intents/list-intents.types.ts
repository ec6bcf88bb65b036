import { intentListView, listIntentsInput as listIntentsRequest } from '@purser/core';

export const listIntentsInput = listIntentsRequest;
export const listIntentsOutput = intentListView;
