import { router } from '../init';
import { getNetwork } from './get-network';

export const chainRouter = router({ network: getNetwork });
