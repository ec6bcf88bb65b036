/** What a service refused with: the AppError's code, message and HTTP status. */
import { isAppError, type ErrorCode } from '@purser/core';

export async function errorOf(promise: Promise<unknown>): Promise<{ code: ErrorCode; message: string; status: number }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message, status: error.httpStatus };
    throw error;
  }
  throw new Error('expected the call to fail');
}
