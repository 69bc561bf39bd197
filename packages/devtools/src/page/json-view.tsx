/** Compact JSON for one line (arguments), or indented for a block (results, schemas). */
export function jsonText(value: unknown, indent = false): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, indent ? 2 : undefined);
}

/** A block of JSON. */
export function JsonBlock({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <pre class="json" data-testid={testId}>
      {jsonText(value, true)}
    </pre>
  );
}
