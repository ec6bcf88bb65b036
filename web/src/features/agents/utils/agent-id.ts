// Whether a URL's agent id can name an agent at all. The server refuses anything but a UUID
// with a validation error; to the owner such an id simply names no agent of theirs.
// The pattern is zod's z.uuid(), which the server's agentIdSchema uses (@purser/core); importing
// that schema here would put zod in the agent pages' chunks for one regular expression, so the
// unit test holds the two in agreement instead.
const UUID = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export function isAgentId(value: string): boolean {
  return UUID.test(value);
}
