import { describe, expect, it } from 'vitest';
import { AssistantStreamError, parseStreamLine, readAssistantStream } from './assistant-stream';

const chunk = (content: string) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}`;

/** A response body that arrives in exactly these pieces (strings or raw bytes). */
function body(pieces: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
}

async function read(pieces: Array<string | Uint8Array>) {
  const seen: string[] = [];
  const reply = await readAssistantStream(body(pieces), (soFar) => seen.push(soFar));
  return { reply, seen };
}

describe('parseStreamLine', () => {
  it('reads the text of a data line’s first choice', () => {
    expect(parseStreamLine(chunk('Hello'))).toEqual({ kind: 'text', text: 'Hello' });
    expect(parseStreamLine(`${chunk('Hi')}\r`)).toEqual({ kind: 'text', text: 'Hi' });
  });

  it('ends at [DONE]', () => {
    expect(parseStreamLine('data: [DONE]')).toEqual({ kind: 'done' });
  });

  it('skips blank lines, comments, other fields, unparsable JSON and chunks without text', () => {
    for (const line of ['', ': keep-alive', 'event: message', 'id: 7', 'data: {not json', 'data: "text"', 'data: null', 'data: {"choices":[]}', 'data: {"choices":[{"delta":{"role":"assistant"}}]}', chunk('')]) {
      expect(parseStreamLine(line), line).toEqual({ kind: 'skip' });
    }
  });

  it('reports a data line carrying an error object', () => {
    expect(parseStreamLine('data: {"error":{"message":"The model is unavailable","code":"UPSTREAM"}}')).toEqual({ kind: 'error', message: 'The model is unavailable' });
    expect(parseStreamLine('data: {"error":true}')).toEqual({ kind: 'error', message: 'unknown error' });
  });
});

describe('readAssistantStream', () => {
  it('accumulates the reply across lines, skipping what is not text, until [DONE]', async () => {
    const { reply, seen } = await read([`: connected\n\n${chunk('Fund ')}\n\n`, `data: {oops\n\n${chunk('an agent')}\n\n`, `${chunk('.')}\n\ndata: [DONE]\n\n`]);
    expect(reply).toBe('Fund an agent.');
    expect(seen).toEqual(['Fund ', 'Fund an agent', 'Fund an agent.']);
  });

  it('joins a line split across chunks, and a character split across chunks', async () => {
    const line = `${chunk('Café ☕')}\n`;
    const bytes = new TextEncoder().encode(line);
    // One byte into the three of the cup.
    const cut = new TextEncoder().encode(line.slice(0, line.indexOf('☕'))).length + 1;
    const { reply } = await read([bytes.slice(0, 10), bytes.slice(10, cut), bytes.slice(cut), 'data: [DO', 'NE]\n']);
    expect(reply).toBe('Café ☕');
  });

  it('accepts CRLF line endings and a final [DONE] without a line ending', async () => {
    const { reply } = await read([`${chunk('a')}\r\n\r\n${chunk('b')}\r\n\r\ndata: [DONE]`]);
    expect(reply).toBe('ab');
  });

  it('ignores anything after [DONE]', async () => {
    const { reply } = await read([`${chunk('done')}\n\ndata: [DONE]\n\n${chunk(' and more')}\n\n`]);
    expect(reply).toBe('done');
  });

  it('fails when the stream ends without [DONE], after passing on what came', async () => {
    const seen: string[] = [];
    await expect(readAssistantStream(body([`${chunk('Half an ans')}\n\n`]), (soFar) => seen.push(soFar))).rejects.toThrow(AssistantStreamError);
    expect(seen).toEqual(['Half an ans']);
  });

  it('fails on an error line from the server, even if [DONE] follows', async () => {
    await expect(read([`${chunk('Partial')}\n\ndata: {"error":{"message":"upstream failed"}}\n\ndata: [DONE]\n\n`])).rejects.toThrow(/upstream failed/);
  });

  it('fails on an empty body', async () => {
    await expect(read([])).rejects.toThrow(/ended before \[DONE\]/);
  });
});
