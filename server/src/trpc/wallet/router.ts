import { router } from '../init';
import { fundAgent } from './fund-agent';
import { getWallet } from './get-wallet';
import { topUpWallet } from './top-up-wallet';

export const walletRouter = router({ get: getWallet, topUp: topUpWallet, fundAgent });
