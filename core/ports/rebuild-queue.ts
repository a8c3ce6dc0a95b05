// How a rebuild request reaches the builder: SQS (FIFO, one message group per project) on AWS,
// an in-process queue for the local server. Both end in the same core build function.

export type RebuildMessage = {
  projectId: string;
  /** Value of the project's rebuild request sequence when this request was made (see core/cache). */
  seq: number;
};

export interface RebuildQueue {
  /**
   * True when the queue holds its messages outside the database (SQS): requestRebuild then sends
   * inside the request's transaction, before commit, so that a refused send rolls the request back
   * instead of leaving it recorded with nothing on its way to a builder. Unset (the Postgres queue,
   * whose send is a write to the request's own cache_state row, which the open transaction locks):
   * sent after commit.
   */
  readonly sendBeforeCommit?: boolean;
  /** Resolves once the request is accepted, not when the build is done; rejects after close(). */
  send(message: RebuildMessage): Promise<void>;
  /** Stops accepting sends; an in-process queue also waits for its running and pending builds. */
  close(): Promise<void>;
}
