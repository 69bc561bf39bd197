import { Param, Tool, ToolContext, Toolset } from '@toolsmith/core';

/** A toy sentiment analyser (keyword based, as in the ADK example). */
@Toolset()
export class SentimentTools {
  @Tool({ description: 'Analyzes the sentiment of the given text.' })
  analyzeSentiment(@Param('text', { description: 'The text to analyze' }) text: string, ctx: ToolContext) {
    const lower = text.toLowerCase();
    const result =
      /\b(good|sunny|great|love)\b/.test(lower) ? { sentiment: 'positive', confidence: 0.8 }
      : /\b(rain|rainy|bad|hate)\b/.test(lower) ? { sentiment: 'negative', confidence: 0.7 }
      : { sentiment: 'neutral', confidence: 0.0 };
    ctx.state.set('lastSentiment', result.sentiment);
    return result;
  }
}
