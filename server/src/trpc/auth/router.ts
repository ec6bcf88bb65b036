import { router } from '../init';
import { getMe } from './get-me';

export const authRouter = router({ me: getMe });
