import type { InnerCallRecord } from '../confirmation/inner-call-record';
import type { ToolContext } from '../tools/tool-context';

// A call's context → what its tool ran inside it; read once by the executor when it builds the call's response.
const recorded = new WeakMap<ToolContext, InnerCallRecord[]>();

/** Records, for the call of `context`, the inner calls an agent tool ran that its response must list (`FunctionResponse.innerCalls`). */
export function recordInnerCalls(context: ToolContext, records: InnerCallRecord[]): void {
  if (records.length > 0) {
    recorded.set(context, records);
    anyRecorded = true;
  } else {
    recorded.delete(context);
  }
}

/** Whether any records were ever made: until then (an app without agent tools) no call's context is looked up. */
let anyRecorded = false;

/** What {@link recordInnerCalls} recorded for the call of `context`, removed as it is read; `undefined` for none. */
export function takeInnerCalls(context: ToolContext): InnerCallRecord[] | undefined {
  if (!anyRecorded) return undefined;
  const records = recorded.get(context);
  if (records) recorded.delete(context);
  return records;
}
