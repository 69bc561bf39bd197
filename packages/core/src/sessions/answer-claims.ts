import type { EventData } from '../events/event';

/**
 * The call ids a stored event claims: the ids of the final function responses in a user's event (a
 * confirmation answer, a long-running call's last update). Intermediate updates (`willContinue`) claim
 * nothing, since a call may get many. Every {@link SessionService} refuses an event claiming an id the
 * session already has a claim for, so a pause is answered exactly once whichever process answers it.
 */
export function answerClaims(event: Pick<EventData, 'author' | 'content' | 'partial'>): string[] {
  if (event.author !== 'user' || event.partial || !event.content) return NO_CLAIMS;
  let claims: string[] | undefined;
  for (const part of event.content.parts) {
    const response = part.functionResponse;
    if (response && response.willContinue !== true) (claims ??= []).push(response.id);
  }
  return claims ?? NO_CLAIMS;
}

// Shared and never mutated: most events claim nothing, and they allocate nothing either.
const NO_CLAIMS: string[] = [];
