import { DBOS } from '@dbos-inc/dbos-sdk';
import { Client } from 'pg';

/** Options of {@link WorkerPool.join}. */
export interface WorkerPoolOptions {
  /** The PostgreSQL server DBOS uses (each worker holds one connection to it while it lives). */
  connectionString: string;
  /** This worker's DBOS `executorID` (the one given to `DBOS.setConfig`). */
  executorID: string;
  /**
   * Called when this worker's liveness connection is lost while the worker runs: other workers may
   * now take its runs over, so it must stop running them. By default the process exits (code 70).
   */
  onLost?: (error: Error) => void;
}

/** The two advisory-lock keys of executor `executorID`: `hashtext` of a fixed namespace and of the id. */
const LOCK_KEYS = `hashtext('toolsmith.dbos.worker'), hashtext($1)`;

/**
 * The live workers of a DBOS application, so that a running worker takes over the runs of one that
 * died. DBOS itself recovers a worker's unfinished workflows only when a worker with the same
 * `executorID` starts again (or when told to, by its Conductor or admin API): a pool member holds a
 * PostgreSQL advisory lock named by its executor id on a connection of its own for as long as its
 * process lives; PostgreSQL releases the lock when that connection ends, which is how the others know
 * it died. {@link WorkerPool.takeOver} then puts the dead worker's unfinished (`PENDING`) workflows of
 * this application version back on their queues with `DBOS.resumeWorkflows`, and a live worker runs
 * each from its recorded steps.
 *
 * Every worker of the application joins the pool (a worker that does not is taken for dead).
 *
 * @example
 * ```ts
 * const pool = await WorkerPool.join({ connectionString, executorID: 'worker-2' }); // before DBOS.launch()
 * DBOS.setConfig({ name: 'shop', systemDatabaseUrl: connectionString, executorID: 'worker-2', applicationVersion: '2026-11-25' });
 * await DBOS.launch();
 * setInterval(() => void pool.takeOverDead(), 5_000); // or call pool.takeOver('worker-1') when you know it died
 * ```
 */
export class WorkerPool {
  private closing = false;

  private constructor(
    private readonly client: Client,
    /** This worker's executor id. */
    readonly executorID: string,
  ) {}

  /**
   * Joins the pool as `executorID`: takes the executor's lock, waiting while another worker takes
   * over that executor's runs or while a process with the same id still lives. Call it before
   * `DBOS.launch()`, so that DBOS's own recovery of this executor's workflows never overlaps a
   * takeover of them.
   */
  static async join(options: WorkerPoolOptions): Promise<WorkerPool> {
    const client = new Client({ connectionString: options.connectionString, application_name: `toolsmith-worker:${options.executorID}` });
    await client.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(${LOCK_KEYS})`, [options.executorID]);
    } catch (error) {
      await client.end();
      throw error;
    }
    const pool = new WorkerPool(client, options.executorID);
    const lost = (error: Error) => {
      if (pool.closing) return;
      pool.closing = true;
      (options.onLost ?? exitProcess)(error);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error(`The liveness connection of worker "${options.executorID}" ended.`)));
    return pool;
  }

  /**
   * Takes over the runs of worker `executorID` once it is dead: waits until its lock is free (its
   * process and connection are gone), then, holding that lock, puts its `PENDING` workflows of this
   * application version back on the queues they came from (the internal queue for started ones), for
   * any live worker to run from their recorded steps. Resolves to their ids (none for this worker's
   * own id: it lives).
   */
  async takeOver(executorID: string): Promise<string[]> {
    if (executorID === this.executorID) return []; // this worker lives
    await this.client.query(`SELECT pg_advisory_lock(${LOCK_KEYS})`, [executorID]);
    try {
      return await resumePending(executorID);
    } finally {
      await this.client.query(`SELECT pg_advisory_unlock(${LOCK_KEYS})`, [executorID]);
    }
  }

  /**
   * Takes over the runs of every dead worker: each executor with `PENDING` workflows of this
   * application version whose lock no process holds. Resolves to the ids of the workflows taken over.
   */
  async takeOverDead(): Promise<string[]> {
    const pending = await DBOS.listWorkflows({ status: 'PENDING', applicationVersion: DBOS.applicationVersion });
    const executors = new Set(pending.map((status) => status.executorId).filter((id): id is string => id !== undefined && id !== this.executorID));
    const taken: string[] = [];
    for (const executorID of executors) {
      const { rows } = await this.client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEYS}) AS locked`, [executorID]);
      if (!rows[0].locked) continue; // alive
      try {
        taken.push(...(await resumePending(executorID)));
      } finally {
        await this.client.query(`SELECT pg_advisory_unlock(${LOCK_KEYS})`, [executorID]);
      }
    }
    return taken;
  }

  /** Leaves the pool (after `DBOS.shutdown()`): the lock is released, and this executor's unfinished runs may be taken over. */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.end();
  }
}

/** Puts executor `executorID`'s `PENDING` workflows of this version back on their queues. */
async function resumePending(executorID: string): Promise<string[]> {
  const pending = await DBOS.listWorkflows({ executorId: executorID, status: 'PENDING', applicationVersion: DBOS.applicationVersion });
  const byQueue = new Map<string | undefined, string[]>();
  for (const status of pending) byQueue.set(status.queueName, [...(byQueue.get(status.queueName) ?? []), status.workflowID]);
  for (const [queueName, ids] of byQueue) await DBOS.resumeWorkflows(ids, queueName === undefined ? {} : { queueName });
  return pending.map((status) => status.workflowID);
}

function exitProcess(error: Error): void {
  process.stderr.write(`${error.message}: other workers may take over this worker's runs, exiting.\n`);
  process.exit(70);
}
