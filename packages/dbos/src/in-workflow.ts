import { DBOS } from '@dbos-inc/dbos-sdk';

/** True in a DBOS workflow's own code (not inside one of its steps): where calls become recorded steps. */
export function inWorkflow(): boolean {
  return DBOS.isWithinWorkflow() && !DBOS.isInStep();
}
