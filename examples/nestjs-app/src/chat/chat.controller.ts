import { Body, Controller, Post, Res } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { Runner } from '@toolsmith/core';
import type { Content } from '@toolsmith/core';
import { parseChatRequest, parseConfirmRequest } from './chat-requests';
import { REQUEST_CONFIRMATION_CALL, writeEventStream } from './event-stream';

/**
 * The chat API. Both endpoints answer with the run's events as Server-Sent Events. `@Sse()` only
 * serves GET, so the stream is written to the response directly (`@Res()`).
 */
@Controller('chat')
export class ChatController {
  constructor(private readonly runner: Runner) {}

  /** Sends the user's message and streams the run: tool calls, confirmation requests, the answer. */
  @Post()
  async chat(@Body() body: unknown, @Res() response: ServerResponse): Promise<void> {
    const request = parseChatRequest(body);
    await this.stream(response, request.userId, request.sessionId, { role: 'user', parts: [{ text: request.message }] });
  }

  /**
   * Answers a confirmation request (approve or reject a tool call) and streams the rest of the run:
   * the approved tool runs, or the model learns it was rejected.
   */
  @Post('confirm')
  async confirm(@Body() body: unknown, @Res() response: ServerResponse): Promise<void> {
    const request = parseConfirmRequest(body);
    const answer: Record<string, unknown> = { confirmed: request.confirmed };
    if (request.payload !== undefined) answer.payload = request.payload;
    await this.stream(response, request.userId, request.sessionId, {
      role: 'user',
      parts: [{ functionResponse: { id: request.confirmationId, name: REQUEST_CONFIRMATION_CALL, response: answer } }],
    });
  }

  private async stream(response: ServerResponse, userId: string, sessionId: string, newMessage: Content): Promise<void> {
    const abort = new AbortController();
    const events = this.runner.run({ userId, sessionId, newMessage, signal: abort.signal, streaming: true });
    await writeEventStream(response, events, abort);
  }
}
