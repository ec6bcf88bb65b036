import { router } from '../init';
import { getHealth } from './get-health';

export const healthRouter = router({ get: getHealth });
