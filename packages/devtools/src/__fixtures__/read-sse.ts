/** One Server-Sent Events message. */
export interface SseMessage {
  event: string;
  data: unknown;
}

/** Reads a whole SSE response body into its messages (the stream ends when the run does). */
export async function readSse(response: Response): Promise<SseMessage[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return { event, data: data === undefined ? undefined : JSON.parse(data) };
    });
}
