import { router } from '../init';
import { createApiKey } from './create-api-key';
import { listApiKeys } from './list-api-keys';
import { revokeApiKey } from './revoke-api-key';

export const apiKeysRouter = router({ create: createApiKey, list: listApiKeys, revoke: revokeApiKey });
