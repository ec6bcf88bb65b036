// One dialog's idempotency keys (utils/idempotency-keys.ts), started afresh each time it opens.
import { useEffect, useState } from 'react';
import { createIdempotencyKeys, type IdempotencyKeys } from '../utils/idempotency-keys';

export function useIdempotencyKeys(open: boolean): IdempotencyKeys {
  const [keys] = useState(() => createIdempotencyKeys());
  useEffect(() => {
    if (open) keys.reset();
  }, [open, keys]);
  return keys;
}
