/**
 * In-process serialisation by key: work given the same key runs one piece after another, in the
 * order it was given; other keys run alongside. A piece that fails does not stop the next. Used
 * where a counterparty takes one thing at a time per key (an agent's EIP-2612 permit nonce, a
 * payment channel's vouchers); other processes are kept apart by the database's row locks.
 */
export function oneAtATimeBy<K>(): <T>(key: K, work: () => Promise<T>) => Promise<T> {
  const queues = new Map<K, Promise<unknown>>();
  return (key, work) => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => {}).then(work);
    queues.set(key, next);
    void next.finally(() => queues.get(key) === next && queues.delete(key)).catch(() => {});
    return next;
  };
}
