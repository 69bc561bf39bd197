import { AgentConfigError } from '../errors/agent-config-error';
import { AGENT_NAME } from '../state/agent-name';
import type { Event } from '../events/event';
import type { InvocationContext } from './invocation-context';

/** Options shared by every agent. */
export interface BaseAgentOptions {
  /** Unique within the agent tree; used as event author and transfer target. Must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** What the agent does; shown to other agents that may transfer to it or call it as a tool. */
  description?: string;
  /** Child agents. Each agent has at most one parent. */
  subAgents?: BaseAgent[];
}


/**
 * Base class of agents: a name, a description and a tree of sub-agents. Subclasses implement
 * {@link BaseAgent.runAsync}, which yields the events of one invocation; the runner stores each complete
 * event before asking for the next, so an agent always sees its own earlier events in the session.
 */
export abstract class BaseAgent {
  /** Unique within the agent tree: the author of the agent's events and the name transfers use. */
  readonly name: string;
  /** What the agent does, for other agents that may transfer to it or call it as a tool; `''` when none was given. */
  readonly description: string;
  /** The child agents, in the order given; empty for a leaf agent. */
  readonly subAgents: readonly BaseAgent[];
  private parent?: BaseAgent;

  constructor(options: BaseAgentOptions) {
    if (!AGENT_NAME.test(options.name)) {
      throw new AgentConfigError(`Agent name ${JSON.stringify(options.name)} is invalid: use 1–64 letters, digits, "_" or "-".`);
    }
    if (options.name === 'user') throw new AgentConfigError('Agent name "user" is reserved for the user\'s own events.');
    this.name = options.name;
    this.description = options.description ?? '';
    this.subAgents = options.subAgents ?? [];
    const seen = new Set<string>();
    for (const child of this.subAgents) {
      if (child.parent) {
        throw new AgentConfigError(`Agent "${child.name}" already has parent "${child.parent.name}"; it cannot also be a sub-agent of "${this.name}".`);
      }
      if (seen.has(child.name)) throw new AgentConfigError(`Agent "${this.name}" has two sub-agents named "${child.name}".`);
      seen.add(child.name);
      child.parent = this;
    }
  }

  /** The agent this one is a sub-agent of. */
  get parentAgent(): BaseAgent | undefined {
    return this.parent;
  }

  /** The top of the tree this agent belongs to. */
  get rootAgent(): BaseAgent {
    return this.parent ? this.parent.rootAgent : this;
  }

  /** This agent or a descendant with the given name. */
  findAgent(name: string): BaseAgent | undefined {
    if (this.name === name) return this;
    for (const child of this.subAgents) {
      const found = child.findAgent(name);
      if (found) return found;
    }
    return undefined;
  }

  /** Every agent of the subtree, depth first, this one first. */
  allAgents(): BaseAgent[] {
    return [this, ...this.subAgents.flatMap((c) => c.allAgents())];
  }

  /** Runs one invocation of this agent, yielding its events. Called by the runner and by parent agents. */
  abstract runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined>;
}
