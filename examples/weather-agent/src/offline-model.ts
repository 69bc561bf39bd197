import { FunctionResponse, LlmRequest } from '@toolsmith/core';
import { ScriptedModel, ScriptedTurn } from '@toolsmith/core/testing';

const CITIES = /\b(london|paris|new york|tokyo|berlin|rome)\b/gi;
const FEELINGS = /\b(good|bad|great|love|hate|like|rain|rainy|sunny)\b/i;

/**
 * A stand-in for a real model when no provider key is set: a {@link ScriptedModel} whose script reads
 * the request the way a model would (the user's words, the tool results) and answers with function
 * calls or text. Everything else in the demo (runner, tools, validation, DI, state) runs for real.
 */
export function createOfflineModel(): ScriptedModel {
  return new ScriptedModel((request) => answer(request), { modelName: 'offline-weather-script' });
}

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  const responses = last.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
  if (responses.length > 0) return responses.map(describe).join(' ');

  const text = last.parts.map((p) => p.text ?? '').join(' ');
  const cities = [...new Set([...text.matchAll(CITIES)].map((m) => titleCase(m[0])))];
  if (cities.length > 0) return { calls: cities.map((city) => ({ name: 'getWeatherReport', args: { city } })) };
  if (FEELINGS.test(text)) return { calls: [{ name: 'analyzeSentiment', args: { text } }] };
  return 'I can tell you the current weather in a city, or how you feel about it. Which city?';
}

function describe(response: FunctionResponse): string {
  const body = response.response as Record<string, string | number | undefined>;
  if (response.name === 'getWeatherReport') {
    return body.status === 'success' ? String(body.report) : `Sorry, ${String(body.errorMessage).replace(/^W/, 'w')}`;
  }
  if (response.name === 'analyzeSentiment') {
    if (body.sentiment === 'negative') return "I'm sorry the weather isn't to your liking. Maybe a sunnier city?";
    if (body.sentiment === 'positive') return "Glad you like it! Enjoy the weather.";
    return 'Noted.';
  }
  return `(${response.name} answered.)`;
}

const titleCase = (city: string) => city.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
