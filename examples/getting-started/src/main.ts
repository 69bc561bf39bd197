import type { Model } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { OpenAIModel } from '@toolsmith/openai';
import { todoRunner } from './todo-agent';

/** A real provider when its key is set; else a scripted model that answers the same way every time. */
function pickModel(): Model {
  if (process.env.OPENAI_API_KEY) return new OpenAIModel({ model: process.env.TOOLSMITH_MODEL ?? 'gpt-4.1-mini' });
  return new ScriptedModel([
    { calls: [{ name: 'createTask', args: { title: 'Buy milk', priority: 'high', dueDate: '2026-12-24' } }] },
    'I added "Buy milk" (high priority, due 2026-12-24).',
  ]);
}

async function main(): Promise<void> {
  const runner = todoRunner(pickModel());
  const newMessage = { role: 'user' as const, parts: [{ text: 'Remind me to buy milk by Christmas Eve, it is urgent.' }] };
  const { text, error, events } = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage });
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall) console.log(`call  ${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}`);
      if (part.functionResponse) console.log(`result ${JSON.stringify(part.functionResponse.response)}`);
    }
  }
  if (error) {
    console.error(`error ${error.code}: ${error.message}`);
    process.exitCode = 1;
  } else console.log(`agent ${text}`);
  await runner.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
