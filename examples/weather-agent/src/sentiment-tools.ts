import { Tool, ToolContext, Toolset } from '@toolsmith/core';

/** What the analyser concluded about a text. */
export interface SentimentResult {
  /** The overall tone of the text. */
  sentiment: 'positive' | 'negative' | 'neutral';
  /** How sure the analyser is, from 0 to 1. */
  confidence: number;
}

/**
 * A toy sentiment analyser (keyword based, as in the ADK example). Written in plain TypeScript and
 * JSDoc, with no `@Param`: its schema comes from the build-time manifest `toolsmith.schema.json`
 * (`npm run schema -w examples/weather-agent`; see docs/schemas.md), found next to the compiled code.
 */
@Toolset()
export class SentimentTools {
  /**
   * Analyzes the sentiment of the given text.
   * @param text The text to analyze
   */
  @Tool()
  analyzeSentiment(text: string, ctx: ToolContext): SentimentResult {
    const lower = text.toLowerCase();
    const result: SentimentResult =
      /\b(good|sunny|great|love)\b/.test(lower) ? { sentiment: 'positive', confidence: 0.8 }
      : /\b(rain|rainy|bad|hate)\b/.test(lower) ? { sentiment: 'negative', confidence: 0.7 }
      : { sentiment: 'neutral', confidence: 0.0 };
    ctx.state.set('lastSentiment', result.sentiment);
    return result;
  }
}
