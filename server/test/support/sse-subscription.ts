/**
 * A tRPC subscription read over real HTTP as text/event-stream, as the web app's EventSource
 * reads it. `message()` is the next data event parsed (pings and the 'connected' event are skipped).
 */
import { expect } from 'vitest';

type SseEvent = { event: string; data: string };

export type SseSubscription = Awaited<ReturnType<typeof subscribeSse>>;

/** Subscribes to `procedure` (e.g. 'realtime.intentChanges') of the app at `baseUrl`. */
export async function subscribeSse(baseUrl: string, procedure: string, options: { token?: string; input?: unknown } = {}) {
  const url = new URL(`/trpc/${procedure}`, baseUrl);
  if (options.input !== undefined) url.searchParams.set('input', JSON.stringify(options.input));
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    signal: abort.signal,
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pending: SseEvent[] = [];
  let ended = false;

  const readEvent = async (timeoutMs: number): Promise<SseEvent | null> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const queued = pending.shift();
      if (queued) return queued;
      if (ended) return null;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`No event from ${procedure} within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), remaining);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk === 'timeout') continue;
      if (chunk.done) {
        ended = true;
        continue;
      }
      buffer += chunk.value;
      // Events end with a blank line; fields are "name: value" lines.
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map<string, string>();
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
        }
        if (fields.has('event') || fields.has('data')) {
          pending.push({ event: fields.get('event') ?? 'message', data: fields.get('data') ?? '' });
        }
      }
    }
  };

  return {
    /** The next data event, parsed; null once the stream ended. */
    async message(timeoutMs = 5_000): Promise<unknown> {
      for (;;) {
        const event = await readEvent(timeoutMs);
        if (event === null) return null;
        if (event.event === 'ping' || event.event === 'connected') continue;
        if (event.event === 'message') return JSON.parse(event.data) as unknown;
        return { [event.event]: event.data ? (JSON.parse(event.data) as unknown) : null };
      }
    },
    close() {
      abort.abort();
    },
  };
}

