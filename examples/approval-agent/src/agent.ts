import 'reflect-metadata';
import type { Model } from '@toolsmith/core';
import { LlmAgent } from '@toolsmith/core';
import { pickModel } from '@toolsmith/example-kit';
import { createOfflineModel } from './offline-model';
import { Payments } from './payments';
import { RefundTools } from './refund-tools';

/** Builds the refund agent on a model (the demo's and the dev tools' agent). */
export function createRefundAgent(model: Model): LlmAgent {
  return new LlmAgent({
    name: 'refund_agent',
    model,
    instruction:
      'You handle refunds. When the user asks for a refund, call the refund tool with the order id and amount. ' +
      'Say what happened in one sentence. If a refund was rejected, do not try again.',
    tools: [RefundTools],
  });
}

// What `toolsmith web|api|run dist/agent.js` loads: the root agent (on the first provider whose key is
// set, else the offline script), its app name and the payments the refund tool writes to.
export const appName = 'refunds';
export const payments = new Payments();
export const providers = [{ provide: Payments, useValue: payments }];
export const agent = createRefundAgent(pickModel(process.env, createOfflineModel).model);
