/** The text inside a Markdown code fence (```json … ```), or the text as it is: models often fence the JSON they are asked for. */
export function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return fenced ? fenced[1] : text;
}
