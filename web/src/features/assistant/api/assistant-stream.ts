// Reads the assistant endpoint's reply (spec section 7): server-sent events whose `data: ` lines
// carry `chat.completion.chunk` JSON, each adding choices[0].delta.content to the reply, until
// `data: [DONE]`. Blank lines, `:` comments and unparsable lines are skipped.
//
// The spec's contract is per line, so the lines are read here rather than by a general SSE
// parser, which would join consecutive `data:` lines of one event into a single payload.
// A reply counts as complete only when [DONE] arrives: a `data:` line carrying an `error`
// object (the server's report of a failure mid-stream) or a stream that simply stops is a
// failure, so a cut-off answer is never presented as whole.

export class AssistantStreamError extends Error {
  override name = 'AssistantStreamError';
}

export type StreamLine =
  | { kind: 'text'; text: string }
  | { kind: 'done' }
  | { kind: 'error'; message: string }
  | { kind: 'skip' };

const SKIP: StreamLine = { kind: 'skip' };

/** What one line of the stream means (without its line ending). */
export function parseStreamLine(rawLine: string): StreamLine {
  const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
  if (!line.startsWith('data:')) return SKIP;
  const data = line.slice('data:'.length).trim();
  if (data === '[DONE]') return { kind: 'done' };
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return SKIP;
  }
  if (!isRecord(payload)) return SKIP;
  if ('error' in payload && payload.error) {
    const message = isRecord(payload.error) && typeof payload.error.message === 'string' ? payload.error.message : 'unknown error';
    return { kind: 'error', message };
  }
  const choices = payload.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const delta = isRecord(first) ? first.delta : undefined;
  const content = isRecord(delta) ? delta.content : undefined;
  return typeof content === 'string' && content !== '' ? { kind: 'text', text: content } : SKIP;
}

/**
 * Reads `body` to [DONE], calling `onText` with the reply so far each time it grows, and
 * resolves with the whole reply. Rejects with AssistantStreamError when the server reports an
 * error or the stream ends before [DONE].
 */
export async function readAssistantStream(body: ReadableStream<Uint8Array>, onText: (reply: string) => void): Promise<string> {
  const reader = body.getReader();
  // `stream: true` keeps a character split across two chunks whole.
  const decoder = new TextDecoder();
  let reply = '';
  let pending = '';
  /** True once the stream is over. */
  const take = (line: string): boolean => {
    const parsed = parseStreamLine(line);
    switch (parsed.kind) {
      case 'text':
        reply += parsed.text;
        onText(reply);
        return false;
      case 'done':
        return true;
      case 'error':
        throw new AssistantStreamError(`The assistant reported an error: ${parsed.message}`);
      case 'skip':
        return false;
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = (pending + decoder.decode(value, { stream: true })).split('\n');
      // The last piece may be half a line: it waits for the next chunk.
      pending = lines.pop() ?? '';
      for (const line of lines) if (take(line)) return reply;
    }
    if (take(pending + decoder.decode())) return reply;
    throw new AssistantStreamError('The reply stream ended before [DONE]');
  } finally {
    // Anything after [DONE] (or after a failure) is not read; the connection can close.
    reader.cancel().catch(() => undefined);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
