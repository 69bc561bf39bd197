/** What an agent name is (`BaseAgentOptions.name`, and a transfer's target): 1–64 letters, digits, "_" or "-". */
export const AGENT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
