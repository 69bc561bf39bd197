import type { InvocationContext } from '../agents/invocation-context';
import type { InvocationServices } from '../agents/invocation-context';
import { InvalidConfirmationAnswerError } from '../errors/invalid-confirmation-answer-error';
import type { Content } from '../model/content';
import type { BaseTool } from '../tools/base-tool';
import type { ConfirmationGrant } from './grant-service';
import type { RememberGrant } from './confirmation-decision';
import { REQUEST_CONFIRMATION, isRecord } from './request-confirmation';
import { toolSchemaHash } from './tool-schema-hash';

/**
 * Refuses an answer that asks to `remember` a grant when the runner has no `grantService` to keep it
 * (`INVALID_CONFIRMATION_ANSWER`), before anything is stored: an "always allow" that would be forgotten
 * at once is not accepted quietly. A `remember` of `null` is none (see readConfirmationDecision).
 */
export function checkRememberHasStore(services: InvocationServices, message: Content): InvalidConfirmationAnswerError | undefined {
  if (services.grantService) return undefined;
  for (const part of message.parts) {
    const response = part.functionResponse;
    if (response?.name === REQUEST_CONFIRMATION && isRecord(response.response) && response.response.remember !== undefined && response.response.remember !== null) {
      return new InvalidConfirmationAnswerError(response.id, '"remember" needs a grantService on the runner, and this runner has none');
    }
  }
  return undefined;
}

/** Stores the grant an approval asked to remember, for `tool` as offered now (its schema's hash), in the scope asked. */
export function rememberGrant(context: InvocationContext, tool: BaseTool, remember: RememberGrant): Promise<ConfirmationGrant> {
  const { scope } = remember;
  return context.services.grantService!.createGrant({
    appName: context.services.appName,
    scope,
    ...(scope === 'app' ? {} : { userId: context.session.userId }),
    ...(scope === 'session' ? { sessionId: context.session.id } : {}),
    toolName: tool.name,
    schemaHash: toolSchemaHash(tool.parameters),
    ...(remember.condition === undefined ? {} : { condition: remember.condition }),
    ...(remember.expiresAt === undefined ? {} : { expiresAt: remember.expiresAt }),
  });
}
