/**
 * What every SDK method returns: a Promise of the answer's data, as before, that can also hand
 * over the answer's metadata (`.withResponse()`: status, headers, request id, idempotent replay,
 * rate limit), and, for the cursor-paged lists, be iterated item by item across pages with
 * `for await`. The shape follows openai-node's APIPromise: a real Promise subclass, so code
 * that awaits it, or types it as `Promise<T>`, is unchanged.
 */

/** The rate-limit headers of an answer (`x-ratelimit-*`, or the IETF draft's `ratelimit-*`). */
export interface RateLimit {
  /** Calls allowed per window. */
  limit: number | undefined;
  /** Calls left in the current window. */
  remaining: number | undefined;
  /** Seconds until the window resets. */
  resetSeconds: number | undefined;
}

/** The metadata of one call's answer (the last attempt's, when the call was retried). */
export interface ResponseMeta {
  status: number;
  headers: Headers;
  /** The server's request id (`x-request-id`): quote it in a support request. */
  requestId: string | undefined;
  /** True when the server answered a repeat of an earlier call by its idempotency key (`Idempotent-Replayed`), not a new one. */
  idempotentReplayed: boolean;
  /** The key a money-moving call was sent with; undefined for other calls. */
  idempotencyKey: string | undefined;
  /** Null when the answer carried no rate-limit headers. */
  rateLimit: RateLimit | null;
  /** Attempts the SDK made, the first included. */
  attempts: number;
}

/** The answer's data with its metadata: what `.withResponse()` resolves to. */
export interface WithResponse<T> {
  data: T;
  response: ResponseMeta;
}

function headerNumber(headers: Headers, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  }
  return undefined;
}

export function responseMeta(answer: { status: number; headers: Headers; idempotencyKey: string | undefined; attempts: number }): ResponseMeta {
  const { headers } = answer;
  const rateLimit: RateLimit = {
    limit: headerNumber(headers, 'x-ratelimit-limit', 'ratelimit-limit'),
    remaining: headerNumber(headers, 'x-ratelimit-remaining', 'ratelimit-remaining'),
    resetSeconds: headerNumber(headers, 'x-ratelimit-reset', 'ratelimit-reset'),
  };
  return {
    status: answer.status,
    headers,
    requestId: headers.get('x-request-id') ?? undefined,
    idempotentReplayed: headers.get('idempotent-replayed') === 'true',
    idempotencyKey: answer.idempotencyKey,
    rateLimit: Object.values(rateLimit).some((value) => value !== undefined) ? rateLimit : null,
    attempts: answer.attempts,
  };
}

export class ApiPromise<T> extends Promise<T> {
  private parsed: Promise<T> | undefined;

  constructor(private readonly answer: Promise<WithResponse<T>>) {
    // The base promise settles at once and is never read: then, catch and finally read `answer`.
    super((resolve) => resolve(undefined as T));
  }

  // Promise's own methods (then, Promise.all) build derived promises with this species.
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The data with the answer's metadata: `const { data, response } = await client.x.y().withResponse()`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.answer;
  }

  private data(): Promise<T> {
    this.parsed ??= this.answer.then((answer) => answer.data);
    return this.parsed;
  }

  // `reason: any`, as Promise declares it, so `.catch((error: PurserApiError) => ...)` still compiles.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.data().then(onfulfilled, onrejected);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override catch<R = never>(onrejected?: ((reason: any) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.data().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.data().finally(onfinally);
  }
}

/**
 * A cursor-paged list: awaited, the first page as the API answers it (`{ intents, nextCursor }`);
 * iterated with `for await`, every item of every page, newest first, following `nextCursor`
 * until the last page. Each next page is asked for only when the items before it are used up.
 */
export class PagePromise<Page, Item> extends ApiPromise<Page> implements AsyncIterable<Item> {
  constructor(
    answer: Promise<WithResponse<Page>>,
    private readonly nextPage: (cursor: string) => ApiPromise<Page>,
    private readonly itemsOf: (page: Page) => readonly Item[],
    /** The next page's cursor: `nextCursor` on the owner API, `next_cursor` on the agent API. */
    private readonly cursorOf: (page: Page) => string | null | undefined = (page) => (page as { nextCursor?: string | null }).nextCursor,
  ) {
    super(answer);
  }

  /** Every page, this first one included. */
  async *pages(): AsyncGenerator<Page, void, undefined> {
    let page: Page = await this;
    yield page;
    const seen = new Set<string>();
    for (let cursor = this.cursorOf(page); cursor !== null && cursor !== undefined; cursor = this.cursorOf(page)) {
      // A cursor the server hands out twice would loop for ever.
      if (seen.has(cursor)) throw new Error(`The API returned the cursor ${JSON.stringify(cursor)} twice; stopping the iteration`);
      seen.add(cursor);
      page = await this.nextPage(cursor);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* this.itemsOf(page);
  }
}
