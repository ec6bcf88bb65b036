import { intentIdInput, intentProgressView } from '@purser/core';

/** One of the owner's payments; another owner's id is NOT_FOUND before the stream opens. */
export const intentProgressInput = intentIdInput;

/** The payment's live flow (the workflow's progress query, the status from the database). */
export const intentProgressMessage = intentProgressView;
