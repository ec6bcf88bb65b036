import { router } from '../init';
import { createPolicy } from './create-policy';
import { deletePolicy } from './delete-policy';
import { getPolicy } from './get-policy';
import { listPolicies } from './list-policies';
import { updatePolicy } from './update-policy';
import { wouldHaveBlocked } from './would-have-blocked';

export const policiesRouter = router({
  list: listPolicies,
  get: getPolicy,
  create: createPolicy,
  update: updatePolicy,
  delete: deletePolicy,
  wouldHaveBlocked,
});
