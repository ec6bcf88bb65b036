// The overview's notice of what waits for the owner's decision, in a sentence.

/** '2 payments wait for your approval.', '1 payment and 1 budget request wait for your decision.' */
export function pendingSentence(payments: number, budgetRequests: number): string {
  const paymentText = payments === 1 ? '1 payment' : `${payments} payments`;
  const requestText = budgetRequests === 1 ? '1 budget request' : `${budgetRequests} budget requests`;
  if (budgetRequests === 0) return `${paymentText} ${payments === 1 ? 'waits' : 'wait'} for your approval.`;
  if (payments === 0) return `${requestText} ${budgetRequests === 1 ? 'waits' : 'wait'} for your decision.`;
  return `${paymentText} and ${requestText} wait for your decision.`;
}
