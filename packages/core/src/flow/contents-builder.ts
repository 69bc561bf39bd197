import type { Event } from '../events/event';
import type { Content, Part } from '../model/content';
import { OUTPUT_INVALID } from './structured-output';
import { mergeTurnResponses, withoutConfirmationParts } from './turn-contents';

/**
 * The conversation as `agentName` should see it: the user's and its own events as they are, other
 * agents' events retold as user-side context (their tools are not this agent's, so their raw calls
 * would not match its declarations), partial and error events left out. Confirmation requests and
 * answers are hidden, and each turn's responses are merged after its calls (see turn-contents.ts).
 */
export function buildContents(events: readonly Event[], agentName: string, branch: string | undefined): Content[] {
  // Sized for one content per event (the usual history), not grown from empty by push (which reserves
  // 17 slots at the first push): cut to what was written at the end. This runs for every model call.
  const contents: Content[] = new Array(events.length);
  let count = 0;
  let hadConfirmations = false;
  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    if (!event.content || event.partial || event.content.parts.length === 0) continue;
    if (branch && event.branch && !branch.startsWith(event.branch)) continue;
    const content = withoutConfirmationParts(event.content);
    if (content !== event.content) hadConfirmations = true;
    if (!content) continue;
    if (event.author === 'user' || event.author === agentName) {
      contents[count++] = content;
      // An answer that broke the output schema is followed by what was wrong with it, for the next try.
      if (event.errorCode === OUTPUT_INVALID && event.errorMessage) contents[count++] = { role: 'user', parts: [{ text: event.errorMessage }] };
    } else {
      const retold = retell({ author: event.author, content });
      if (retold) contents[count++] = retold;
    }
  }
  if (count !== contents.length) contents.length = count;
  return mergeTurnResponses(contents, events, hadConfirmations);
}

function retell(event: Pick<Event, 'author' | 'content'>): Content | undefined {
  const parts: Part[] = [{ text: 'For context:' }];
  for (const part of event.content?.parts ?? []) {
    if (part.text !== undefined && !part.thought && part.text.trim()) parts.push({ text: `[${event.author}] said: ${part.text}` });
    else if (part.functionCall) {
      const args = typeof part.functionCall.args === 'string' ? part.functionCall.args : JSON.stringify(part.functionCall.args);
      parts.push({ text: `[${event.author}] called tool \`${part.functionCall.name}\` with parameters: ${args}` });
    } else if (part.functionResponse) {
      parts.push({ text: `[${event.author}] \`${part.functionResponse.name}\` tool returned result: ${JSON.stringify(part.functionResponse.response)}` });
    }
  }
  return parts.length > 1 ? { role: 'user', parts } : undefined;
}
