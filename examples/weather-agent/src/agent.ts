import 'reflect-metadata';
import type { Model } from '@toolsmith/core';
import { LlmAgent } from '@toolsmith/core';
import { WeatherService, WeatherTools, createWeatherOfflineModel, pickModel } from '@toolsmith/example-kit';
import { SentimentTools } from './sentiment-tools';

/** Builds the weather/sentiment agent on a model (the demo's and the dev tools' agent). */
export function createWeatherAgent(model: Model): LlmAgent {
  return new LlmAgent({
    name: 'weather_sentiment_agent',
    model,
    instruction:
      'You are a helpful assistant that provides weather information and analyzes the sentiment of user feedback. ' +
      "If the user asks about the weather in a specific city, use the 'getWeatherReport' tool to retrieve the weather details. " +
      "If the tool returns status 'error', tell the user politely that the information is not available. " +
      "If the user gives feedback about the weather (e.g. 'That's good' or 'I don't like rainy weather'), use the 'analyzeSentiment' tool " +
      'to understand their sentiment, then respond appropriately. Keep answers short.',
    tools: [WeatherTools, SentimentTools],
  });
}

// What `toolsmith web|api|run dist/agent.js` loads: the root agent (on the first provider whose key is
// set, else the offline script), its app name and the providers of its toolsets' dependencies.
export const appName = 'weather_app';
export const providers = [WeatherService];
export const agent = createWeatherAgent(pickModel(process.env, createWeatherOfflineModel).model);
