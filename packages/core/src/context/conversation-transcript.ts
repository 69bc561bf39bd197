import type { Content } from '../model/content';

/**
 * Contents written out as plain text, one line per part (`User: …`, `Agent: …`, `Agent called tool
 * \`x\` with {…}`, `Tool \`x\` returned {…}`), for a model asked to summarize them: plain text needs no
 * tool declarations and breaks no provider's rules on how calls and results must be paired.
 */
export function conversationTranscript(contents: readonly Content[]): string {
  const lines: string[] = [];
  for (const content of contents) {
    const speaker = content.role === 'model' ? 'Agent' : 'User';
    for (const part of content.parts) {
      if (part.text !== undefined && !part.thought && part.text.trim()) lines.push(`${speaker}: ${part.text}`);
      else if (part.functionCall) {
        const args = typeof part.functionCall.args === 'string' ? part.functionCall.args : JSON.stringify(part.functionCall.args);
        lines.push(`Agent called tool \`${part.functionCall.name}\` with ${args}`);
      } else if (part.functionResponse) {
        lines.push(`Tool \`${part.functionResponse.name}\` returned ${JSON.stringify(part.functionResponse.response)}`);
      } else if (part.inlineData) lines.push(`${speaker}: [a file: ${part.inlineData.displayName ?? part.inlineData.mimeType}]`);
    }
  }
  return lines.join('\n');
}
