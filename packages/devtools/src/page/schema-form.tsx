// A form generated from a tool's JSON Schema: one field per top-level property (text, number,
// checkbox, choice for enums, JSON for objects and arrays). What is typed is sent as typed: a number
// field that does not hold a number is sent as text, so the tool's validation answers as in a run.

/** A JSON Schema node, as far as the form reads it. */
interface SchemaNode {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
}

/** The field values of a form, by property name (raw text; checkboxes as 'true'/'false'). */
export type FormValues = Record<string, string>;

function kindOf(node: SchemaNode): 'enum' | 'boolean' | 'number' | 'string' | 'json' {
  if (node.enum) return 'enum';
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
  if (type === 'boolean') return 'boolean';
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'string') return 'string';
  return 'json';
}

/** The fields of a schema's top-level properties. */
export function schemaFields(schema: Record<string, unknown>): Array<{ name: string; node: SchemaNode; required: boolean }> {
  const root = schema as SchemaNode;
  return Object.entries(root.properties ?? {}).map(([name, node]) => ({ name, node, required: root.required?.includes(name) ?? false }));
}

/** Turns the form's values into arguments: empty fields are left out, numbers and JSON parsed when they parse. */
export function argsFromForm(schema: Record<string, unknown>, values: FormValues): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const { name, node } of schemaFields(schema)) {
    const raw = values[name];
    if (raw === undefined || raw === '') continue;
    const kind = kindOf(node);
    if (kind === 'boolean') args[name] = raw === 'true';
    else if (kind === 'number') args[name] = raw.trim() !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
    else if (kind === 'json' || (kind === 'enum' && typeof node.enum?.[0] !== 'string')) {
      try {
        args[name] = JSON.parse(raw) as unknown;
      } catch {
        args[name] = raw;
      }
    } else args[name] = raw;
  }
  return args;
}

/** The generated form's fields. */
export function SchemaForm({ schema, values, onChange }: { schema: Record<string, unknown>; values: FormValues; onChange: (values: FormValues) => void }) {
  const fields = schemaFields(schema);
  if (fields.length === 0) return <p class="muted">This tool takes no arguments.</p>;
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });
  return (
    <div class="schema-form">
      {fields.map(({ name, node, required }) => {
        const kind = kindOf(node);
        const value = values[name] ?? '';
        const label = (
          <span>
            <code>{name}</code>
            {required ? <span class="required" title="required"> *</span> : <span class="muted"> (optional)</span>}
            {node.description && <span class="muted"> — {node.description}</span>}
          </span>
        );
        if (kind === 'boolean') {
          return (
            <label class="check" key={name}>
              <input type="checkbox" name={name} checked={value === 'true'} onChange={(e) => set(name, e.currentTarget.checked ? 'true' : '')} /> {label}
            </label>
          );
        }
        return (
          <label class="field" key={name}>
            {label}
            {kind === 'enum' ? (
              <select name={name} value={value} onChange={(e) => set(name, e.currentTarget.value)}>
                <option value="">—</option>
                {node.enum!.map((option) => (
                  <option key={String(option)} value={typeof option === 'string' ? option : JSON.stringify(option)}>
                    {String(option)}
                  </option>
                ))}
              </select>
            ) : kind === 'json' ? (
              <textarea name={name} rows={3} value={value} placeholder="JSON" onInput={(e) => set(name, e.currentTarget.value)} />
            ) : (
              <input
                name={name}
                inputMode={kind === 'number' ? 'decimal' : undefined}
                value={value}
                placeholder={node.default !== undefined ? `default: ${JSON.stringify(node.default)}` : kind}
                onInput={(e) => set(name, e.currentTarget.value)}
              />
            )}
          </label>
        );
      })}
    </div>
  );
}
