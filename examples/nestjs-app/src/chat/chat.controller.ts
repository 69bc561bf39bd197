import { BadRequestException, Body, Controller, NotFoundException, Post, Res } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { Runner, checkFunctionResponses, confirmationRequests, confirmationResponse, credentialRequests, credentialResponse, findPendingCalls } from '@toolsmith/core';
import type { Content } from '@toolsmith/core';
import { ConfirmRequest, parseChatRequest, parseConfirmRequest, parseCredentialRequest } from './chat-requests';
import { writeEventStream } from './event-stream';

/**
 * The chat API. Every endpoint answers with the run's events as Server-Sent Events. `@Sse()` only
 * serves GET, so the stream is written to the response directly (`@Res()`). A request may carry a
 * `messageId`: sent again after a lost connection, the message is not stored or run again, and the
 * stream replays what it produced (`RunInput.messageId`), so "send it again" is always safe.
 */
@Controller('chat')
export class ChatController {
  constructor(private readonly runner: Runner) {}

  /** Sends the user's message and streams the run: tool calls, confirmation requests, the answer. */
  @Post()
  async chat(@Body() body: unknown, @Res() response: ServerResponse): Promise<void> {
    const request = parseChatRequest(body);
    await this.stream(response, request, { role: 'user', parts: [{ text: request.message }] });
  }

  /**
   * Answers a confirmation request and streams the rest of the run: approve (the tool runs), edit (it
   * runs with the user's arguments, or the stream's one event refuses them with `CONFIRMATION_EDIT_INVALID`),
   * reject with a message (the model reads it), or respond (the user's answer is the result). An id that
   * is not waiting in the session is a 404, before any streaming.
   */
  @Post('confirm')
  async confirm(@Body() body: unknown, @Res() response: ServerResponse): Promise<void> {
    const request = parseConfirmRequest(body);
    // An answer sent again: the confirmation no longer waits, and the run replays what the answer produced.
    const newMessage = (await this.storedMessage(request)) ?? (await this.answerFor(request));
    await this.stream(response, request, newMessage);
  }

  /**
   * Answers a credential request (a `credential` event): the OAuth2 redirect URL the app's callback
   * received, a typed-in credential, or `cancelled`. Toolsmith checks the state, exchanges the code and
   * runs the waiting tool; the rest of the run streams. An id that is not waiting is a 404.
   */
  @Post('credential')
  async credential(@Body() body: unknown, @Res() response: ServerResponse): Promise<void> {
    const request = parseCredentialRequest(body);
    const stored = await this.storedMessage(request);
    if (stored) return this.stream(response, request, stored);
    const session = await this.runner.sessionService.getSession({ appName: this.runner.appName, userId: request.userId, sessionId: request.sessionId });
    const waiting = session && findPendingCalls(session.events).confirmations.has(request.credentialId);
    const found = waiting ? session.events.flatMap((event) => credentialRequests(event)).find((r) => r.call.id === request.credentialId) : undefined;
    if (!found) throw new NotFoundException(`No credential request "${request.credentialId}" is waiting in this session.`);
    await this.stream(response, request, credentialResponse(found, request.answer));
  }

  // The client sends only the request's id; the request itself (echoed in the answer) comes from the session.
  private async answerFor(request: ConfirmRequest): Promise<Content> {
    const session = await this.runner.sessionService.getSession({
      appName: this.runner.appName,
      userId: request.userId,
      sessionId: request.sessionId,
    });
    const waiting = session && findPendingCalls(session.events).confirmations.has(request.confirmationId);
    const requestCall = waiting
      ? session.events.flatMap((event) => confirmationRequests(event)).find((r) => r.call.id === request.confirmationId)?.call
      : undefined;
    if (!requestCall) throw new NotFoundException(`No confirmation "${request.confirmationId}" is waiting in this session.`);
    // The answer's fields go to core as sent (with the waiting call, unless the client names one itself, which
    // core then holds it to), and core's own check refuses what the runner would: a 400 with its code.
    const reply = confirmationResponse(requestCall, { confirmed: false });
    const part = reply.parts[0].functionResponse!;
    part.response = { originalFunctionCall: part.response.originalFunctionCall, ...request.answer };
    const refusal = checkFunctionResponses(session!.events, reply);
    if (refusal) throw new BadRequestException({ statusCode: 400, error: refusal.code, message: refusal.message });
    return reply;
  }

  /** The message the session already holds under the request's `messageId` (the runner stores it as event `msg:<messageId>`), if any. */
  private async storedMessage(request: { userId: string; sessionId: string; messageId?: string }): Promise<Content | undefined> {
    if (request.messageId === undefined) return undefined;
    const session = await this.runner.sessionService.getSession({ appName: this.runner.appName, userId: request.userId, sessionId: request.sessionId });
    return session?.events.find((event) => event.id === `msg:${request.messageId}`)?.content;
  }

  private async stream(response: ServerResponse, request: { userId: string; sessionId: string; messageId?: string }, newMessage: Content): Promise<void> {
    const abort = new AbortController();
    const { userId, sessionId, messageId } = request;
    const events = this.runner.run({ userId, sessionId, newMessage, messageId, signal: abort.signal, streaming: true });
    await writeEventStream(response, events, abort);
  }
}
