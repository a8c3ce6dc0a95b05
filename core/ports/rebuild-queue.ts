// How a rebuild request reaches the builder: SQS (FIFO, one message group per project) on AWS,
// an in-process queue for the local server. Both end in the same core build function.

export type RebuildMessage = {
  projectId: string;
  /** Value of the project's rebuild request sequence when this request was made (see core/cache). */
  seq: number;
};

export interface RebuildQueue {
  /** Resolves once the request is accepted, not when the build is done; rejects after close(). */
  send(message: RebuildMessage): Promise<void>;
  /** Stops accepting sends; an in-process queue also waits for its running and pending builds. */
  close(): Promise<void>;
}
