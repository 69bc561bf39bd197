import 'reflect-metadata';
import { InMemorySessionService, Runner } from '@toolsmith/core';
import { createWeatherOfflineModel, pickModel, printEvent } from '@toolsmith/example-kit';
import { appName, createWeatherAgent, providers } from './agent';

/** What the demo says to the agent, in order. */
export const DEMO_MESSAGES = [
  "What's the weather like in London?",
  "That sounds bad, I really don't like rainy weather.",
  'How about Paris and Tokyo?',
];

/** Options of {@link main}, so tests can run the demo without a key and capture its output. */
export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
}

/** Runs the weather/sentiment agent over {@link DEMO_MESSAGES} and prints the conversation. */
export async function main(options: MainOptions = {}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const picked = pickModel(options.env ?? process.env, createWeatherOfflineModel);

  const agent = createWeatherAgent(picked.model);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName, agent, sessionService, providers });

  print(`Toolsmith weather agent — ${picked.description}`);
  for (const text of DEMO_MESSAGES) {
    print('');
    print(`User: ${text}`);
    for await (const event of runner.run({ userId: 'demo-user', sessionId: 'demo', newMessage: { role: 'user', parts: [{ text }] } })) {
      printEvent(event, print);
    }
  }
  const session = await sessionService.getSession({ appName, userId: 'demo-user', sessionId: 'demo' });
  print('');
  print(`Session state at the end: ${JSON.stringify(session?.state ?? {})}`);
  await runner.close();
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
