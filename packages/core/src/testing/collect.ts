/**
 * Reads an async iterable (a model's `generate`, a runner's events) to the end and returns its items in
 * order; a rejection from the iterable rejects the returned promise.
 *
 * @example
 * const responses = await collect(model.generate(request, { stream: true }));
 */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
