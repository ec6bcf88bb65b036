import { auditEntryListView, listAuditEntriesInput as listAuditEntriesRequest } from '@purser/core';

/** The input may be left out: the newest page of every entry. */
export const listAuditEntriesInput = listAuditEntriesRequest.prefault({});
export const listAuditEntriesOutput = auditEntryListView;
