/**
 * A `fetch` for the OpenAI SDK that makes one compatible server's error bodies readable: Google's
 * OpenAI-compatible endpoint answers a failed request with a JSON array holding one error
 * (`[{"error":{"code":400,"message":"…"}}]`), which the SDK cannot read (it
 * reports "400 status code (no body)" and the message is lost). Such a body is passed on as its one
 * element; every other response is passed on untouched.
 */
export async function fetchUnwrappingArrayErrors(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok || !response.headers.get('content-type')?.includes('json')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const unwrapped = Array.isArray(body) && body.length === 1 && typeof body[0] === 'object' && body[0] !== null && 'error' in body[0] ? JSON.stringify(body[0]) : text;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(unwrapped, { status: response.status, statusText: response.statusText, headers });
}
