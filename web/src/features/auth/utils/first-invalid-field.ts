// The one validation message a form shows (spec section 5: only the first), and the field it
// belongs to, so the form can mark that field and move focus to it.
import { firstValidationMessage } from '@purser/core';

export interface FieldError<F extends string> {
  field: F;
  message: string;
}

type ValidationError = Parameters<typeof firstValidationMessage>[0];

export function firstInvalidField<F extends string>(error: ValidationError, fieldOrder: readonly F[]): FieldError<F> {
  const message = firstValidationMessage(error, fieldOrder);
  const issue = error.issues.find((candidate) => candidate.message === message);
  const field = fieldOrder.find((name) => name === issue?.path[0]) ?? fieldOrder[0]!;
  return { field, message };
}
