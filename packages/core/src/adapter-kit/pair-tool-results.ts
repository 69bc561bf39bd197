import type { Content, FunctionCall, FunctionResponse, Part } from '../model/content';
import { type CallIdRule, fitCallId } from './call-id';

/**
 * Normalizes a conversation so every model turn with function calls is followed by exactly one
 * response per call, the way provider APIs demand (OpenAI: one `tool` message / `function_call_output`
 * per call id; Anthropic: `tool_result` blocks first in the next user message).
 *
 * For each model content with function calls, the function responses found in the user contents
 * up to the next model content are gathered into ONE user content that starts with one response per
 * call, in call order, followed by the other user parts of that stretch (e.g. text). When a call was
 * answered more than once there (a long-running tool's pending then final result), the last answer
 * wins. A call with no answer gets an error response (`MISSING_RESULT`), so the provider accepts the
 * history. An answer to a call outside the current stretch (a late long-running result, or an unknown
 * id) becomes a text part, since providers refuse a second or orphan result for a call id.
 *
 * With `callIds`, a call id the provider would refuse (see {@link CallIdRule}) is replaced, in the call and its
 * response alike, by {@link fitCallId}'s stable id; the contents given are not changed.
 */
export function pairToolResults(contents: readonly Content[], callIds?: CallIdRule): Content[] {
  const out: Content[] = [];
  let calls: FunctionCall[] = [];
  let answers = new Map<string, FunctionResponse>();
  let trailing: Part[] = [];

  const flush = () => {
    if (calls.length) {
      const parts: Part[] = calls.map((call) => ({ functionResponse: fittedResponse(answers.get(call.id) ?? missingResult(call), callIds) }));
      out.push({ role: 'user', parts: [...parts, ...trailing] });
    }
    calls = [];
    answers = new Map();
    trailing = [];
  };

  for (const content of contents) {
    if (content.role === 'model') {
      flush();
      out.push(callIds ? withFittedCallIds(content, callIds) : content);
      calls = content.parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []));
      continue;
    }
    const openIds = new Set(calls.map((call) => call.id));
    const others: Part[] = [];
    for (const part of content.parts) {
      const response = part.functionResponse;
      if (response && openIds.has(response.id)) answers.set(response.id, response);
      else if (response) others.push({ text: lateResultText(response) });
      else others.push(part);
    }
    if (calls.length) trailing.push(...others);
    else if (others.length) out.push({ role: 'user', parts: others });
  }
  flush();
  return out;
}

function missingResult(call: FunctionCall): FunctionResponse {
  return {
    id: call.id,
    name: call.name,
    response: { error: { code: 'MISSING_RESULT', message: `No result was recorded for this call to "${call.name}".` } },
    isError: true,
  };
}

function lateResultText(response: FunctionResponse): string {
  return `Result of the earlier call ${response.id} to tool "${response.name}": ${JSON.stringify(response.response)}`;
}

/** `content` with each call id `rule` refuses replaced (a copy, when there is one). */
function withFittedCallIds(content: Content, rule: CallIdRule): Content {
  if (!content.parts.some((part) => part.functionCall && fitCallId(part.functionCall.id, rule) !== part.functionCall.id)) return content;
  const parts = content.parts.map((part) => (part.functionCall ? { ...part, functionCall: { ...part.functionCall, id: fitCallId(part.functionCall.id, rule) } } : part));
  return { ...content, parts };
}

function fittedResponse(response: FunctionResponse, rule: CallIdRule | undefined): FunctionResponse {
  if (!rule) return response;
  const id = fitCallId(response.id, rule);
  return id === response.id ? response : { ...response, id };
}
