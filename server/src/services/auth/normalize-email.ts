/** Emails are stored trimmed and lower-cased (users.email is unique on that form). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
