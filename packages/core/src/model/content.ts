import type { CallConfirmation } from '../confirmation/call-confirmation';
import type { ConfirmationPolicyVerdict } from '../confirmation/confirmation-policy';
import type { LongRunningQuestion } from '../confirmation/long-running-question';
import type { InnerCallRecord } from '../confirmation/inner-call-record';

/** Who produced a {@link Content}: the user (including tool results sent back) or the model. */
export type Role = 'user' | 'model';

/**
 * A function call the model asked for. `args` is what the model sent: an object, or (from providers that
 * send JSON text) the raw text, which the executor parses and reports on when it is malformed.
 */
export interface FunctionCall {
  /** Call id, unique within the session; adapters generate stable ids when the provider sends none. */
  id: string;
  /** The tool called, by name; a name no offered tool has is answered with a `TOOL_NOT_FOUND` error response. */
  name: string;
  /** The arguments as received: an object, or raw JSON text that the executor parses (malformed text becomes an error response). */
  args: Record<string, unknown> | string;
}

/**
 * A function call the model is still writing, while its arguments stream in: on partial responses and
 * partial events only (never stored, never sent to a model). Each one holds the argument text received
 * so far; the complete response that follows holds the finished {@link FunctionCall}, with the same `id`.
 */
export interface PartialFunctionCall {
  /** The call's id: the `id` of the finished call in the complete response. */
  id: string;
  /** The name of the tool being called. */
  name: string;
  /** The argument text received so far (JSON, usually incomplete until the call is finished). */
  argsText: string;
  /** The piece of `argsText` this partial adds to the previous one. */
  argsDelta: string;
}

/** The answer to one {@link FunctionCall}, matched by `id`. */
export interface FunctionResponse {
  /** The `id` of the {@link FunctionCall} it answers. */
  id: string;
  /** The name of the called tool, as in the call (for a confirmation or credential answer, the request's name). */
  name: string;
  /** Always a JSON object. Errors are `{ error: { code, message, details? } }` with `isError: true`. */
  response: Record<string, unknown>;
  /** True when `response` reports a failure (unknown tool, invalid arguments, thrown error, denial). */
  isError?: boolean;
  /**
   * Binary content of the result (images, documents, audio…), beside the JSON `response`: what a tool
   * returned through `toolFile` / `toolResult`. Each adapter sends it natively where the provider can
   * take it (see docs/providers.md); never counted against the result budget nor cut. Absent when none.
   */
  parts?: FunctionResponsePart[];
  /**
   * Set by a client on an intermediate update of a long-running call: more responses for this id will
   * follow, so the call stays pending. Absent on final responses.
   */
  willContinue?: boolean;
  /**
   * Set by a client on an intermediate update of a long-running call (with `willContinue`): a question for
   * the person, answered like a tool's own confirmation request; the answer runs the tool again (see
   * docs/long-running.md, "Asking the person"). Never sent to the model. Absent otherwise.
   */
  question?: LongRunningQuestion;
  /**
   * Repairs the executor made to the call's arguments before they validated (a code fence removed, a
   * number sent as a string converted, …), in the order made. Recorded for people and metrics; never sent
   * to the model. Absent when the arguments needed none.
   */
  argumentRepairs?: ArgumentRepair[];
  /**
   * How this call's confirmation was settled, when it was more than a plain yes or no (edited
   * arguments, a rejection with a message, an answer instead of the tool's result, a remembered grant); see
   * docs/confirmation.md. Recorded for people and audits; never sent to the model. Absent otherwise.
   */
  confirmation?: CallConfirmation;
  /**
   * What the `confirmationPolicy` decided on this call, in either mode (`shadow`: recorded only); see
   * docs/confirmation.md. For audits; never sent to the model. Absent when no policy judged the call.
   */
  policy?: ConfirmationPolicyVerdict;
  /**
   * On an `AgentTool`'s response: the calls inside it (its agent's, a sub-agent's after a transfer, a
   * nested agent tool's) that a confirmation settled or the confirmation policy judged, each with its
   * `confirmation` and `policy`, so the outer session shows granted and policy-decided inner calls (see
   * docs/confirmation.md, "Agents used as tools"). For audits; never sent to the model. Absent when there are none.
   */
  innerCalls?: InnerCallRecord[];
}

/** The named repairs the executor may make to a model's arguments; nothing beyond these is ever guessed. */
export type ArgumentRepairName =
  | 'code-fence'
  | 'trailing-comma'
  | 'double-encoded-arguments'
  | 'double-encoded-property'
  | 'string-to-number'
  | 'string-to-boolean'
  | 'null-for-optional'
  | 'enum-case';

/** One repair made to a call's arguments: which one, and where (a JSON pointer; `""` for the whole arguments). */
export interface ArgumentRepair {
  /** Which repair was made. */
  repair: ArgumentRepairName;
  /** JSON pointer of the repaired value within the arguments; `""` for a repair of the whole arguments text (e.g. a code fence). */
  path: string;
  /** For `enum-case`: the enum value the string was replaced with (so the call can be read as it ran without the tool's schema). Absent otherwise. */
  value?: string;
}

/** Binary data inline in a part (base64). */
export interface InlineData {
  /** The IANA media type of the data, e.g. `image/png` or `application/json`. */
  mimeType: string;
  /** The bytes, base64-encoded (not a data URL). */
  data: string;
  /** A name for the data (a file name such as `chart.png`), for providers that show one. */
  displayName?: string;
}

/** One piece of binary content of a {@link FunctionResponse}: an image, a document, audio… (base64). */
export interface FunctionResponsePart {
  /** The media type, the bytes (base64) and the file's name when it has one. */
  inlineData: InlineData;
}

/**
 * One piece of a message. Exactly one of `text`, `functionCall`, `partialFunctionCall`,
 * `functionResponse`, `inlineData`, `providerData` is set, except that a `text` or `functionCall` part may
 * also carry the `providerData` of the provider item it came from (an OpenAI Responses `message` or
 * `function_call` item). Parts are plain JSON so sessions survive a JSON round trip.
 */
export interface Part {
  /** Plain text: the model's answer (or reasoning, with `thought`), or the user's message. */
  text?: string;
  /** True when `text` is the model's reasoning rather than its answer. */
  thought?: boolean;
  /** Opaque provider signature that must be sent back unchanged (Gemini `thoughtSignature`, Anthropic's thinking `signature`). */
  thoughtSignature?: string;
  /**
   * The `provider` id of the model that issued `thoughtSignature`. A signature is only valid for its
   * provider: adapters send it (and a signed thought) only to that one, so a session whose agents use
   * different providers never sends one provider's signature to another. Absent in sessions stored by
   * earlier releases; such a signature is sent to whichever provider is asked, as it was then.
   */
  thoughtSignatureProvider?: string;
  /** A tool call the model asked for; only in model content. */
  functionCall?: FunctionCall;
  /** A tool call the model is still writing; only in the content of partial (streamed) responses and events. */
  partialFunctionCall?: PartialFunctionCall;
  /** A tool's result sent back to the model; only in user content. */
  functionResponse?: FunctionResponse;
  /** Binary data such as an image or file, base64-encoded. */
  inlineData?: InlineData;
  /**
   * A provider's own content that has no neutral form, kept so the conversation can be sent back to
   * that provider as its API requires: Anthropic's server-tool blocks (`server_tool_use`,
   * `web_search_tool_result`, …) and `redacted_thinking`, Gemini's `executableCode` /
   * `codeExecutionResult`, OpenAI's Responses output items (reasoning, hosted-tool items, and on a text or
   * call part the `message` / `function_call` item it came from). `provider` is the producing model's
   * `provider` id and `data` the provider's block as received (JSON). Opaque everywhere else: adapters of other providers skip it, and it is
   * not text for users.
   */
  providerData?: { provider: string; data: Record<string, unknown> };
}

/** A message: a role and its parts. */
export interface Content {
  /** `'model'` for the model's output; `'user'` for the user's messages and for function responses sent back to the model. */
  role: Role;
  /** The pieces of the message, in order: text, function calls or responses, inline data. */
  parts: Part[];
}
