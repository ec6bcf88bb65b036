/**
 * A search of the chain's logs from the block recorded at signing. A sandbox chain restarted from
 * its state file replays what it lost, possibly into lower block numbers than the one recorded,
 * and may not have reached that block yet (the node refuses the search): there, when the search
 * fails or finds nothing, its whole (short) history is searched instead. A real network's
 * history is not rewritten, so its failures are thrown.
 */
import type { EvmNetworkInfo } from '../../chain/evm-chain';

export async function searchFromBlock<T>(
  info: Pick<EvmNetworkInfo, 'sandbox'>,
  fromBlock: bigint,
  search: (fromBlock: bigint) => Promise<T>,
  found: (result: T) => boolean,
): Promise<T | null> {
  const first = await search(fromBlock).catch((error: unknown) => {
    if (info.sandbox) return null;
    throw error;
  });
  if ((first !== null && found(first)) || !info.sandbox) return first;
  return search(0n);
}
