import type { StepUpMethod } from '@seatlink/contracts';

/**
 * Asks the user to confirm it is them (`passkey`: they have one, which confirms too); resolves true once confirmed (the
 * call is then sent again), false if not.
 */
export type StepUpHandler = (method: StepUpMethod, message: string, passkey: boolean) => Promise<boolean>;

let handler: StepUpHandler | null = null;

/**
 * Who asks the user when a call answers 403 STEP_UP_REQUIRED (the admin pages' dialog); answers the function that
 * takes it away again. Without one, such a call fails as any other refusal does.
 */
export function setStepUpHandler(next: StepUpHandler): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

/** Asks, when someone can; false when nobody can. */
export function askStepUp(method: StepUpMethod, message: string, passkey = false): Promise<boolean> {
  return handler ? handler(method, message, passkey) : Promise.resolve(false);
}
