import 'reflect-metadata';
import { InMemorySessionService, LlmAgent, Runner } from '@toolsmith/core';
import { WeatherService, WeatherTools, createWeatherOfflineModel, pickModel, printEvent } from '@toolsmith/example-kit';
import { SentimentTools } from './sentiment-tools';

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

  const agent = new LlmAgent({
    name: 'weather_sentiment_agent',
    model: picked.model,
    instruction:
      'You are a helpful assistant that provides weather information and analyzes the sentiment of user feedback. ' +
      "If the user asks about the weather in a specific city, use the 'getWeatherReport' tool to retrieve the weather details. " +
      "If the tool returns status 'error', tell the user politely that the information is not available. " +
      "If the user gives feedback about the weather (e.g. 'That's good' or 'I don't like rainy weather'), use the 'analyzeSentiment' tool " +
      'to understand their sentiment, then respond appropriately. Keep answers short.',
    tools: [WeatherTools, SentimentTools],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'weather_app', agent, sessionService, providers: [WeatherService] });

  print(`Toolsmith weather agent — ${picked.description}`);
  for (const text of DEMO_MESSAGES) {
    print('');
    print(`User: ${text}`);
    for await (const event of runner.run({ userId: 'demo-user', sessionId: 'demo', newMessage: { role: 'user', parts: [{ text }] } })) {
      printEvent(event, print);
    }
  }
  const session = await sessionService.getSession({ appName: 'weather_app', userId: 'demo-user', sessionId: 'demo' });
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
