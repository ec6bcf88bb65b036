import { spendHistoryInput, spendHistoryView } from '@purser/core';

export const getSpendHistoryInput = spendHistoryInput;
export const getSpendHistoryOutput = spendHistoryView;
